#pragma once
// A projection's handlers over some events, on a transaction the caller
// opened: the drain (projection_dispatch.cpp), inline commits and inline
// rebuilds (inline_commit.cpp, inline_rebuild.cpp) share it.
#include <cstddef>
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

// The events the projection has handlers for (a batch takes each named one).
std::vector<Committed> handled_by(const detail::ProjectionModel& projection, const std::vector<Committed>& events);

}  // namespace act::react
