#pragma once
// A projection's handlers over some events, on a transaction the caller
// opened: the drain (projection_dispatch.cpp), inline commits and inline
// rebuilds (inline_commit.cpp, inline_rebuild.cpp) share it.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "act/detail/reaction_model.hpp"
#include "db/session.hpp"
#include "sql_queue.hpp"

namespace act::react {

// Taken by the transaction that runs a projection's setup: processes
// starting together would collide on the catalog in CREATE TABLE IF NOT EXISTS.
inline constexpr const char* kSerializeSetUp = "SELECT pg_advisory_xact_lock(hashtext('act projection setup'))";

// The first `count` events: the batch handler with statements sent one by
// one, or each event's handler with its statements queued on `queue`, not
// waited for (the caller finishes the queue, or commits it). `position` is
// the event whose handler runs, to tell which one threw.
void run_handlers(const detail::ProjectionModel& projection, const std::vector<Committed>& events, std::size_t count,
                  db::Session& session, SqlQueue& queue, std::size_t& position);

// Where applying the first `count` events failed: the event whose handler
// (or one of its statements) failed, and whether it may be retried (not an
// act::NonRetryableError). `at` is `count` when no event's statement
// failed: the connection or the database did.
struct HandlerFailure {
  std::size_t at = 0;
  std::string error;
  bool retryable = true;
};
// Queues the caller's statements behind the handlers' once every handler
// returned (the watermark's write), so they travel in the same round trip;
// the caller collects them.
using QueueBehind = std::function<void()>;
// run_handlers, then every queued statement waited for (with `behind`: only
// the handlers'); the transaction is lost after a failure (the caller rolls it back).
std::optional<HandlerFailure> apply_handlers(const detail::ProjectionModel& projection,
                                             const std::vector<Committed>& events, std::size_t count,
                                             db::Session& session, const QueueBehind& behind = {});

// The projection's events in (after, through] as a subscription with its
// source and names would select them, at most `limit`. names: the stored
// names it reads (Registry::names_read_by).
std::vector<Committed> read_page(db::Session& session, const detail::ProjectionModel& projection,
                                 const std::vector<std::string>& names, std::optional<std::int64_t> after,
                                 std::int64_t through, std::int32_t limit);

// The events the projection has handlers for (a batch takes each named one).
std::vector<Committed> handled_by(const detail::ProjectionModel& projection, const std::vector<Committed>& events);

}  // namespace act::react
