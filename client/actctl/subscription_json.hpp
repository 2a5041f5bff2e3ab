#pragma once
// A subscription row as to_jsonb renders a row of act.subscriptions: what
// blocked --json prints.
#include <nlohmann/json.hpp>

#include "act/subscriptions.hpp"

namespace actctl {

nlohmann::json SubscriptionJson(const act::Subscription& row);

}  // namespace actctl
