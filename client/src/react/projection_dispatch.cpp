// dispatch_projection: a projection's writes and its acknowledgement in one transaction.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>

#include "act/errors.hpp"
#include "db/transaction.hpp"
#include "observe/observers.hpp"
#include "react/dispatch.hpp"
#include "react/projection_apply.hpp"
#include "react/projection_versions.hpp"
#include "store/reaction_calls.hpp"

namespace act::react {
namespace {

struct Attempt {
  std::size_t failed_at = 0;  // the event whose handler threw (batches: 0); events.size() when none did
  std::string error;
  bool retryable = true;
  bool lost = false;  // the lease had passed on: everything was rolled back
  std::vector<const Committed*> side_effects;  // committed, and this version is current: theirs to run
};

// Records the applied events on the row, in the writes' transaction; false:
// the lease had passed on, so nothing may commit.
using Settle = std::function<bool(db::Session&)>;

// Applies the first `count` events and settles the row, or nothing.
// Failures of the settling or the commit (not of a handler) throw.
Attempt apply_and_settle(ConnectionPool& pool, const detail::ProjectionModel& projection,
                         const std::vector<Committed>& events, std::size_t count, const Settle& settle) {
  Attempt attempt;
  attempt.failed_at = count;
  ConnectionPool::Lease connection = pool.acquire();
  db::Session& session = connection.session();
  db::Transaction transaction(session);
  if (const std::optional<HandlerFailure> failure = apply_handlers(projection, events, count, session)) {
    attempt = Attempt{failure->at, failure->error, failure->retryable, false, {}};
    return attempt;  // rolled back by the transaction's destructor
  }
  Gate gate;
  if (!projection.side_effects.empty() && count > 0) gate = pass_gate(session, projection, events[count - 1].id);
  if (!settle(session)) {
    // Another worker holds the stream now: it applies these events itself.
    attempt.lost = true;
    return attempt;
  }
  transaction.commit();
  if (!gate.live) return attempt;
  for (std::size_t i = 0; i < count; ++i) {
    if (events[i].id > gate.after && projection.side_effects.contains(events[i].name))
      attempt.side_effects.push_back(&events[i]);
  }
  return attempt;
}

// A page applied whole. Per-event handlers: BEGIN, their statements and the
// acknowledgement in one round trip, COMMIT in a second once the
// acknowledgement landed. A batch handler's statements run as it sends them,
// so its page goes through apply_and_settle, as does a version's with side
// effects (its gate goes before the acknowledgement).
Attempt apply_and_acknowledge(ConnectionPool& pool, const detail::ProjectionModel& projection,
                              const std::vector<Committed>& events, const Lease& lease, std::int64_t at) {
  const Acknowledgement ack{lease, at, std::nullopt, std::nullopt};
  if (projection.batch || !projection.side_effects.empty())
    return apply_and_settle(pool, projection, events, events.size(), [&ack](db::Session& session) {
      return !reaction_calls::ack(session, {ack}).empty();
    });
  Attempt attempt;
  attempt.failed_at = events.size();
  ConnectionPool::Lease connection = pool.acquire();
  db::Session& session = connection.session();
  db::Transaction transaction(session, db::Begin::kQueued);
  std::optional<std::size_t> ack_ticket;
  if (const std::optional<HandlerFailure> failure =
          apply_handlers(projection, events, events.size(), session,
                         [&] { ack_ticket = reaction_calls::queue_ack(session, {ack}); })) {
    attempt = Attempt{failure->at, failure->error, failure->retryable, false, {}};
    return attempt;  // rolled back by the transaction's destructor
  }
  // Another worker holds the stream now: it applies these events itself.
  attempt.lost = reaction_calls::collect_ack(session, *ack_ticket).empty();
  if (!attempt.lost) transaction.commit();
  return attempt;
}

// The events before a failing one are kept and the failed attempt is
// counted: a plain ack would reset retry and give the failing event a
// fresh budget, so its first attempt would not count.
Settle keep_prefix(const Lease& lease, std::int64_t at, const Outcome& verdict, std::chrono::milliseconds lease_time) {
  if (verdict.block) {
    // Block while the lease is ours, then move the watermark past the prefix.
    return [&lease, at, &verdict](db::Session& session) {
      if (reaction_calls::block(session, {BlockedLease{lease, *verdict.error}}).empty()) return false;
      return !reaction_calls::ack(session, {Acknowledgement{lease, at, std::nullopt, std::nullopt}}).empty();
    };
  }
  // Without a backoff the lease time spaces the retries, as for any failure.
  const Timestamp due = verdict.retry_at.value_or(timestamp_now() + lease_time);
  return [&lease, at, due](db::Session& session) {
    (void)reaction_calls::ack(session, {Acknowledgement{lease, at, due, lease.retry}});
    // A due entry is applied but not returned: the row tells whether it landed.
    const std::optional<Subscription> row = reaction_calls::subscription_row(session, lease.stream);
    return row && row->at == at && !row->leased_by && row->deferred_at == due && row->retry == lease.retry;
  };
}

Outcome applied(std::int32_t handled, std::int64_t at, bool lost) {
  Outcome outcome;
  outcome.handled = lost ? 0 : handled;
  outcome.acked_at = at;
  outcome.acknowledged = true;
  outcome.lost = lost;
  return outcome;
}

// After the commit, so a version never acts on writes that did not land.
void run_side_effects(AppPort& app, const detail::ProjectionModel& projection, const Attempt& attempt,
                      const std::atomic<bool>& stopping) {
  for (const Committed* event : attempt.side_effects) (void)run_side_effect(app, projection, *event, stopping);
}

}  // namespace

bool run_side_effect(AppPort& app, const detail::ProjectionModel& projection, const Committed& event,
                     const std::atomic<bool>& stopping) {
  std::string error = "a side effect threw a non-exception";
  try {
    ReactionContext context(app, event, projection.route.target, stopping);
    projection.side_effects.find(event.name)->second(event, context);
    return true;
  } catch (const std::exception& thrown) {
    error = thrown.what();
  } catch (...) {
  }
  app.observers().log(LogLevel::kError, "a projection's side effect failed",
                      {{"target", projection.route.target}, {"event", std::to_string(event.id)}, {"error", error}});
  return false;
}

Outcome dispatch_projection(AppPort& app, const detail::ProjectionModel& projection, const Lease& lease,
                            const std::vector<Committed>& events, std::int64_t fetched_to,
                            std::chrono::milliseconds lease_time, const std::atomic<bool>& stopping) {
  ConnectionPool& pool = app.store().pool();
  try {
    const Attempt all = apply_and_acknowledge(pool, projection, events, lease, fetched_to);
    run_side_effects(app, projection, all, stopping);
    if (all.failed_at == events.size()) return applied(static_cast<std::int32_t>(events.size()), fetched_to, all.lost);

    const Committed& failing = events[all.failed_at];
    if (all.failed_at > 0) {
      const std::int64_t prefix_end = events[all.failed_at - 1].id;
      const Outcome verdict = failed(lease, projection.options, static_cast<std::int32_t>(all.failed_at), prefix_end,
                                     all.error, all.retryable, &failing, projection.route.target);
      const Attempt prefix = apply_and_settle(pool, projection, events, all.failed_at,
                                              keep_prefix(lease, prefix_end, verdict, lease_time));
      run_side_effects(app, projection, prefix, stopping);
      if (prefix.failed_at == all.failed_at) {
        Outcome outcome = applied(static_cast<std::int32_t>(all.failed_at), prefix_end, prefix.lost);
        outcome.error = all.error;
        outcome.block = verdict.block && !prefix.lost;
        outcome.retry_at = verdict.retry_at;
        outcome.failed_on(failing);
        outcome.failed_reaction = projection.route.target;
        return outcome;
      }
    }
    return failed(lease, projection.options, 0, lease.at, all.error, all.retryable, &failing, projection.route.target);
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
