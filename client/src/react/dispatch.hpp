#pragma once
// Running one leased target's events through its handlers, strictly in order.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "act/detail/reaction_model.hpp"
#include "act/pool.hpp"
#include "react/app_port.hpp"
#include "react/outcome.hpp"

namespace act::react {

// Thrown by the library's own handler that closed its stream (autoclose):
// the events up to `at` are deleted or done with, so the target moves past them.
struct ClosedThrough {
  std::int64_t at;
};

// One reaction to run for one event.
struct Payload {
  const detail::ReactionModel* reaction;
  const Committed* event;
};

// Plain reactions: each handler runs on its own (its actions commit by
// themselves); the watermark moves past an event once all its reactions
// succeeded. Stops between events once `stopping` is set.
Outcome dispatch_reactions(AppPort& app, const Lease& lease, const std::vector<Payload>& payloads,
                           std::int64_t fetched_to, const std::atomic<bool>& stopping);

// A projection: its writes and the acknowledgement commit in one
// transaction. A failing per-event handler keeps the events before it (they
// are applied again in a fresh transaction, and the failed attempt counts
// against the budget); a failing batch keeps nothing. lease_time: the lane's,
// which spaces retries when the projection has no backoff. Its side effects
// run after the commit, when this version is the current one.
// Calls the projection's side effect of the event; a failure is logged, not
// retried (the read model has the event already): false.
bool run_side_effect(AppPort& app, const detail::ProjectionModel& projection, const Committed& event,
                     const std::atomic<bool>& stopping);

Outcome dispatch_projection(AppPort& app, const detail::ProjectionModel& projection, const Lease& lease,
                            const std::vector<Committed>& events, std::int64_t fetched_to,
                            std::chrono::milliseconds lease_time, const std::atomic<bool>& stopping);

}  // namespace act::react
