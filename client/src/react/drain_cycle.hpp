#pragma once
// One drain cycle of a lane (docs/reactions.md): claim, read each
// leased target's pending events, run them through its handlers, block the
// streams whose budget is spent, acknowledge the rest.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <optional>

#include "act/drain.hpp"
#include "act/reaction.hpp"
#include "react/registry.hpp"

namespace act::app_detail {
struct AppCore;
}

namespace act::react {

struct CycleDeps {
  app_detail::AppCore& core;
  const Registry& registry;
  const std::atomic<bool>& stopping;
  std::function<void(const ReactionFailure&)> on_failure;  // may be empty
};

// Tells the listener, if any; a listener's throw is not the cycle's problem.
void report_failure(const CycleDeps& deps, const ReactionFailure& failure) noexcept;

struct CycleReport {
  DrainResult result;
  std::int64_t handled_lagging = 0;  // for the lagging / leading split of the next claim
  std::int64_t handled_leading = 0;
  std::optional<Timestamp> next_due;  // the earliest defer or backoff this cycle set
  std::map<std::string, std::int64_t, std::less<>> handled_by_target;
};

CycleReport run_cycle(CycleDeps& deps, const Lane& lane, std::int32_t lagging, std::int32_t leading);

}  // namespace act::react
