#pragma once
// A subscription row as the Work and Stream pages show it: the row as
// to_jsonb renders it, plus what the page derives from it (the work waiting
// beyond the watermark, the lease's time left), computed here once.
#include <chrono>
#include <nlohmann/json.hpp>

#include "act/subscriptions.hpp"

namespace actctl::inspector {

nlohmann::json SubscriptionRow(const act::Subscription& row, std::chrono::system_clock::time_point now);

}  // namespace actctl::inspector
