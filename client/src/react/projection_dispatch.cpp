// dispatch_projection: a projection's writes and its acknowledgement in one transaction.
#include <algorithm>

#include "act/errors.hpp"
#include "db/transaction.hpp"
#include "react/dispatch.hpp"
#include "react/projection_apply.hpp"
#include "store/reaction_calls.hpp"

namespace act::react {
namespace {

struct Attempt {
  std::size_t failed_at = 0;  // the event whose handler threw (batches: 0); events.size() when none did
  std::string error;
  bool retryable = true;
  bool lost = false;          // the lease had passed on: everything was rolled back
};

// Applies the first `count` events and acknowledges `ack_at`, or nothing.
// Failures of the acknowledgement or the commit (not of a handler) throw.
Attempt apply_and_ack(ConnectionPool& pool, const detail::ProjectionModel& projection, const Lease& lease,
                      const std::vector<Committed>& events, std::size_t count, std::int64_t ack_at) {
  Attempt attempt;
  attempt.failed_at = count;
  ConnectionPool::Lease connection = pool.acquire();
  db::Transaction transaction(connection.session());
  if (const std::optional<HandlerFailure> failure = apply_handlers(projection, events, count, connection.session())) {
    attempt = Attempt{failure->at, failure->error, failure->retryable, false};
    return attempt;  // rolled back by the transaction's destructor
  }
  Acknowledgement acknowledgement{lease, ack_at, std::nullopt, std::nullopt};
  if (reaction_calls::ack(connection.session(), {acknowledgement}).empty()) {
    // Another worker holds the stream now: it applies these events itself.
    attempt.lost = true;
    return attempt;
  }
  transaction.commit();
  return attempt;
}

Outcome applied(std::int32_t handled, std::int64_t at, bool lost) {
  Outcome outcome;
  outcome.handled = lost ? 0 : handled;
  outcome.acked_at = at;
  outcome.acknowledged = true;
  outcome.lost = lost;
  return outcome;
}

}  // namespace

Outcome dispatch_projection(ConnectionPool& pool, const detail::ProjectionModel& projection, const Lease& lease,
                            const std::vector<Committed>& events, std::int64_t fetched_to) {
  try {
    const Attempt all = apply_and_ack(pool, projection, lease, events, events.size(), fetched_to);
    if (all.failed_at == events.size()) return applied(static_cast<std::int32_t>(events.size()), fetched_to, all.lost);

    if (all.failed_at > 0) {
      // Keep the events before the failing one; it gets a fresh budget next cycle.
      const Attempt prefix = apply_and_ack(pool, projection, lease, events, all.failed_at, events[all.failed_at - 1].id);
      if (prefix.failed_at == all.failed_at) {
        Outcome outcome = applied(static_cast<std::int32_t>(all.failed_at), events[all.failed_at - 1].id, prefix.lost);
        outcome.error = all.error;
        outcome.failed_on(events[all.failed_at]);
        outcome.failed_reaction = projection.route.target;
        return outcome;
      }
    }
    return failed(lease, projection.options, 0, lease.at, all.error, all.retryable, &events[all.failed_at],
                  projection.route.target);
  } catch (const Error& error) {
    // The acknowledgement or the commit failed: whether it landed is the
    // database's to say. Leave the lease alone; it expires and is claimed again.
    Outcome outcome;
    outcome.acked_at = lease.at;
    outcome.error = error.what();
    outcome.failed_reaction = projection.route.target;
    outcome.acknowledged = true;
    outcome.lost = true;
    return outcome;
  }
}

}  // namespace act::react
