#include "react/inline_commit.hpp"

#include "db/transaction.hpp"
#include "react/inline_lock.hpp"
#include "react/projection_apply.hpp"
#include "sql_queue.hpp"
#include "store/commit_params.hpp"
#include "store/event_rows.hpp"
#include "store/statements.hpp"

namespace act::react {
namespace {

constexpr int kFreshColumn = 9;  // after the event columns of kCommitInline

struct Landed {
  std::vector<Committed> events;
  bool written_here = false;
};

}  // namespace

std::vector<Committed> commit_inline(ConnectionPool& pool, const Registry& registry,
                                     const std::vector<InlineCandidate>& candidates,
                                     std::string_view stream, const std::vector<Message>& events,
                                     const nlohmann::json& meta, std::optional<std::int32_t> expected_version) {
  ConnectionPool::Lease connection = pool.acquire();
  db::Session& session = connection.session();
  db::Transaction transaction(session, db::Begin::kQueued);

  // The locks before the commit: no rebuild may read the log between this
  // commit's events and its projections' writes.
  std::vector<std::size_t> lock_tickets;
  lock_tickets.reserve(candidates.size());
  for (const InlineCandidate& candidate : candidates) {
    db::Params params;
    params.text(std::string_view(inline_lock::key(candidate.projection->route.target))).text(candidate.pattern).text(stream);
    lock_tickets.push_back(session.queue(inline_lock::kTakeShared, params, "inline projection lock", stream));
  }
  const std::size_t commit_ticket = session.queue(store_sql::kCommitInline.sql,
                                                  store_params::commit(stream, events, meta, expected_version),
                                                  store_sql::kCommitInline.operation, stream);

  std::vector<const detail::ProjectionModel*> matched;  // those whose source took the stream
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    bool locked = false;
    session.collect(lock_tickets[i], [&](const db::Row&) { locked = true; });
    if (locked) matched.push_back(candidates[i].projection);
  }
  Landed landed;
  session.collect(commit_ticket, [&](const db::Row& row) {
    landed.events.push_back(store_rows::committed_from(row));
    landed.written_here = row.boolean(kFreshColumn);
  });

  if (landed.written_here) {
    SqlQueue queue(session);
    for (const detail::ProjectionModel* projection : matched) {
      const std::vector<Committed> handled = handled_by(*projection, registry.handed_to(*projection, landed.events));
      if (handled.empty()) continue;
      std::size_t position = 0;
      run_handlers(*projection, handled, handled.size(), session, queue, position);
    }
    // The queued statements and COMMIT go together; COMMIT runs only if they all succeeded.
  }
  transaction.commit();
  return std::move(landed.events);
}

}  // namespace act::react
