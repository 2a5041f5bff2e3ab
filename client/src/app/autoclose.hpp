#pragma once
// Autoclose: the reactions StateBuilder::autocloses adds to an app, one per
// state, delivering each event of the state to a target of its own stream's
// ("__autoclose__:<stream>"), so a deferred check never holds up the
// stream's other reactions.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "act/detail/reaction_model.hpp"
#include "act/detail/state_model.hpp"
#include "act/store.hpp"

namespace act::app_detail {

inline constexpr std::string_view kAutoclosePrefix = "__autoclose__:";

inline bool is_autoclose_target(std::string_view target) { return target.starts_with(kAutoclosePrefix); }

// The query_stats that reads streams' heads as a policy judges them.
StatsQuery autoclose_heads(const detail::StateModel& state, std::vector<std::string> streams);

enum class CloseDue { kNone, kRetire, kTrim };
// What the state's policy would do to a stream whose head (autoclose_heads) is this, now.
CloseDue close_due(const detail::StateModel& state, const StreamStats& stats, Timestamp now);

// The reactions of every state with a policy, in state order.
std::vector<detail::ReactionModel> autoclose_reactions(const std::vector<std::shared_ptr<const detail::StateModel>>& states);

}  // namespace act::app_detail
