#include "react/inline_rebuild.hpp"

#include <chrono>
#include <string>
#include <vector>

#include "act/errors.hpp"
#include "act/subscriptions.hpp"
#include "db/transaction.hpp"
#include "react/inline_lock.hpp"
#include "react/projection_apply.hpp"
#include "sql_queue.hpp"
#include "store/event_rows.hpp"
#include "store/statements.hpp"

namespace act::react {
namespace {

constexpr std::int32_t kPageEvents = 1000;
constexpr std::chrono::milliseconds kHorizonWait{1'000};
constexpr std::chrono::seconds kHorizonPatience{30};

std::int64_t single_int64(db::Session& session, const db::Statement& statement, const db::Params& params) {
  std::int64_t value = -1;
  session.run(statement, params, [&](const db::Row& row) { value = row.int64(0); });
  return value;
}

// Until the horizon reaches head, act.query would not hand over every event
// up to it. What holds it back now are commits without this projection's
// lock (other streams, or commits that bypass the app): they end by themselves.
void wait_for_horizon(db::Session& session, std::int64_t head) {
  const auto give_up = std::chrono::steady_clock::now() + kHorizonPatience;
  std::int64_t horizon = single_int64(session, store_sql::kHorizon, db::Params());
  while (horizon < head) {
    if (std::chrono::steady_clock::now() >= give_up)
      throw StoreError("rebuild", {}, "rebuild: the horizon stayed at " + std::to_string(horizon) + ", below event " +
                                         std::to_string(head) + ", for " + std::to_string(kHorizonPatience.count()) +
                                         " s (act.horizon_holders() shows who holds it back)");
    horizon = single_int64(session, store_sql::kWait, db::Params().number(head - 1).number(kHorizonWait.count()));
  }
}

}  // namespace

RebuildProgress rebuild_inline(ConnectionPool& pool, const Registry& registry, const detail::ProjectionModel& projection,
                               const std::function<void(const RebuildProgress&)>& on_progress) {
  RebuildProgress progress;
  progress.target = projection.route.target;
  ConnectionPool::Lease connection = pool.acquire();
  db::Session& session = connection.session();
  db::Transaction transaction(session);
  session.exec(inline_lock::kTakeExclusive, db::Params().text(std::string_view(inline_lock::key(projection.route.target))),
               [](const db::Row&) {});
  if (projection.truncate) {
    Sql sql(session);
    projection.truncate(sql);
  }
  // Read after the lock: every inline commit of this projection before it
  // has committed, so its events are at or below the head; every one after
  // it takes ids above the head and applies itself once the rebuild commits.
  progress.head = single_int64(session, store_sql::kMaxEventId, db::Params());
  wait_for_horizon(session, progress.head);

  const std::vector<std::string> names = registry.names_read_by(projection);
  std::optional<std::int64_t> after;
  for (;;) {
    const std::vector<Committed> read = read_page(session, projection, names, after, progress.head, kPageEvents);
    if (read.empty()) break;
    const std::vector<Committed> page = registry.handed_to(projection, read);
    if (const std::optional<HandlerFailure> failure = apply_handlers(projection, page, page.size(), session)) {
      // The transaction rolls back: the read model is as it was before the rebuild.
      progress.blocked = true;
      progress.error = failure->error;
      progress.applied = 0;
      progress.at = -1;
      if (on_progress) on_progress(progress);
      return progress;
    }
    progress.applied += static_cast<std::int64_t>(page.size());
    progress.at = page.back().id;
    after = page.back().id;
    if (on_progress) on_progress(progress);
    if (page.size() < static_cast<std::size_t>(kPageEvents)) break;
  }
  transaction.commit();
  progress.at = progress.head;
  if (on_progress) on_progress(progress);
  return progress;
}

}  // namespace act::react
