#pragma once
// What AppBuilder collects for the app's observers (act/observe.hpp); any
// member may be empty.
#include <functional>
#include <memory>
#include <vector>

#include "act/drain.hpp"
#include "act/event.hpp"
#include "act/observe.hpp"

namespace act::detail {

struct Listeners {
  std::shared_ptr<Logger> logger;  // empty: stderr_logger()
  std::function<void(const ReactionFailure&)> on_failure;
  std::function<void(const std::vector<Committed>&)> on_committed;
  std::function<void(const Acked&)> on_acked;
  std::function<void(const ReactionFailure&)> on_blocked;
  std::function<void(const SettleResult&)> on_settled;
  std::function<void(const WorkerError&)> on_error;
};

}  // namespace act::detail
