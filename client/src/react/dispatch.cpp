#include "react/dispatch.hpp"

#include <algorithm>

#include "act/errors.hpp"

namespace act::react {

Outcome dispatch_reactions(AppPort& app, const Lease& lease, const std::vector<Payload>& payloads,
                           std::int64_t fetched_to, const std::atomic<bool>& stopping) {
  Outcome outcome;
  outcome.acked_at = lease.at;
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    const Payload& payload = payloads[i];
    const bool first_of_event = i == 0 || payloads[i - 1].event != payload.event;
    // Between events only: an event's reactions all run, or none.
    if (first_of_event && stopping.load(std::memory_order_relaxed)) return outcome;
    ReactionContext context(app, *payload.event, lease.stream, stopping);
    try {
      payload.reaction->handle(*payload.event, context);
    } catch (const DeferSignal& signal) {
      outcome.defer_until = signal.due;
      return outcome;
    } catch (const ClosedThrough& closed) {
      ++outcome.handled;
      outcome.acked_at = std::max(payload.event->id, closed.at);
      return outcome;
    } catch (const NonRetryableError& error) {
      return failed(lease, payload.reaction->options, outcome.handled, outcome.acked_at, error.what(), false, payload.event,
                    payload.reaction->name);
    } catch (const std::exception& error) {
      return failed(lease, payload.reaction->options, outcome.handled, outcome.acked_at, error.what(), true, payload.event,
                    payload.reaction->name);
    } catch (...) {
      return failed(lease, payload.reaction->options, outcome.handled, outcome.acked_at, "a handler threw a non-exception",
                    true, payload.event, payload.reaction->name);
    }
    const bool last_of_event = i + 1 == payloads.size() || payloads[i + 1].event != payload.event;
    if (last_of_event) {
      ++outcome.handled;
      outcome.acked_at = payload.event->id;
    }
  }
  // Events no reaction matched are passed over too.
  outcome.acked_at = fetched_to;
  return outcome;
}

}  // namespace act::react
