#pragma once
#include <chrono>

#include "act/detail/state_model.hpp"

namespace act::app_detail {

// How long to wait before retry number `retry` (0-based) of a conflicted action.
std::chrono::milliseconds backoff_delay(const Backoff& backoff, int retry);

}  // namespace act::app_detail
