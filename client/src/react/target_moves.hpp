#pragma once
// A fixed target that moved between two versions of an app goes on from
// where the earlier version stopped (docs/reactions.md, "Moving a reaction").
#include <optional>
#include <string>
#include <vector>

#include "act/subscriptions.hpp"
#include "react/app_port.hpp"

namespace act::react {

// Before the app's fixed targets are subscribed: a target renamed from
// `former` takes over that row's watermark; one whose row reads another
// source is given a row of this app's source at the same watermark; a lane
// change is logged (the subscribe moves the row). Each move is logged.
// Returns the target's row as it stood when no take-over made it anew, for
// the names check that follows.
std::vector<Subscription> move_target(AppPort& app, const SubscriptionSpec& spec,
                                      const std::optional<std::string>& former);

}  // namespace act::react
