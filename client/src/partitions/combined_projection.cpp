#include "partitions/combined_projection.hpp"

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <utility>

#include "act/errors.hpp"
#include "act/partitions.hpp"
#include "act/subscriptions.hpp"
#include "db/transaction.hpp"
#include "react/projection_apply.hpp"
#include "store/statements.hpp"

namespace act::partitions {
namespace {

constexpr std::int32_t kPageEvents = 500;

// In the read model's database, next to the read model: the application's
// schema, not the extension's (the database need not have pg_act at all).
constexpr const char* kCreatePositions = R"sql(
CREATE TABLE IF NOT EXISTS act_partition_positions (
  projection  text        NOT NULL,
  partition   int         NOT NULL,
  partitions  int         NOT NULL,
  position    bigint      NOT NULL DEFAULT 0,  -- the last id of the partition applied; 0 before its first event
  attempts    int         NOT NULL DEFAULT 0,  -- failed attempts at the event after position
  error       text,
  failed_id   bigint,
  updated     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (projection, partition))
)sql";

// SKIP LOCKED: a partition another worker is applying is its, not a wait.
constexpr const char* kLockPosition =
    "SELECT position, attempts FROM act_partition_positions "
    "WHERE projection = $1 AND partition = $2::int FOR UPDATE SKIP LOCKED";
// settle and rebuild wait for the worker that has it instead.
constexpr const char* kWaitForPosition =
    "SELECT position, attempts FROM act_partition_positions "
    "WHERE projection = $1 AND partition = $2::int FOR UPDATE";

constexpr const char* kAdvance =
    "UPDATE act_partition_positions SET position = $3::bigint, attempts = 0, error = NULL, failed_id = NULL, "
    "updated = now() WHERE projection = $1 AND partition = $2::int";

constexpr const char* kRecordFailure =
    "UPDATE act_partition_positions SET attempts = attempts + 1, error = $3, failed_id = $4::bigint, "
    "updated = now() WHERE projection = $1 AND partition = $2::int";

struct Position {
  std::int64_t at = 0;
  std::int32_t attempts = 0;
};

// Nothing when the row is another worker's (kSkipLocked); a missing row is an error.
std::optional<Position> lock_position(db::Session& session, const std::string& target, std::int32_t partition,
                                      Locking locking) {
  std::optional<Position> position;
  bool found = false;
  session.exec(locking == Locking::kSkipLocked ? kLockPosition : kWaitForPosition,
               db::Params().text(std::string_view(target)).number(partition), [&](const db::Row& row) {
                 position = Position{row.int64(0), row.int32(1)};
                 found = true;
               });
  if (!found && locking == Locking::kWait)
    throw std::logic_error("projection " + target + ": its row of partition " + std::to_string(partition) +
                           " in act_partition_positions is missing");
  return position;
}

std::int64_t horizon_of(db::Session& source) {
  std::int64_t horizon = -1;
  source.run(store_sql::kHorizon, db::Params(), [&](const db::Row& row) { horizon = row.int64(0); });
  return horizon;
}

db::Params advance_params(const std::string& target, std::int32_t partition, std::int64_t to) {
  return db::Params().text(std::string_view(target)).number(partition).number(to);
}

void advance(db::Session& session, const std::string& target, std::int32_t partition, std::int64_t to) {
  session.exec(kAdvance, advance_params(target, partition, to), [](const db::Row&) {});
}

void record_failure(db::Session& session, const std::string& target, std::int32_t partition, const std::string& error,
                    std::int64_t event_id) {
  session.exec(kRecordFailure, db::Params().text(std::string_view(target)).number(partition).text(std::string_view(error)).number(event_id),
               [](const db::Row&) {});
}

}  // namespace

CombinedProjection::CombinedProjection(std::shared_ptr<const detail::ProjectionModel> projection,
                                       std::shared_ptr<ConnectionPool> read_model, std::int32_t partitions)
    : projection_(std::move(projection)), read_model_(std::move(read_model)), partitions_(partitions) {
  if (!projection_) throw std::invalid_argument("a projection over all partitions needs a projection");
  if (!read_model_)
    throw std::invalid_argument("projection " + target() + ": the pool of its read model's database is null");
  if (projection_->run_inline)
    throw std::invalid_argument("projection " + target() +
                                ": an inline projection cannot span partitions (each commit is in one partition)");
}

void CombinedProjection::set_up() {
  const std::lock_guard lock(set_up_mutex_);
  if (set_up_) return;
  ConnectionPool::Lease connection = read_model_->acquire();
  db::Session& session = connection.session();
  db::Transaction transaction(session);
  session.exec(react::kSerializeSetUp, db::Params(), [](const db::Row&) {});
  session.exec(kCreatePositions, db::Params(), [](const db::Row&) {});
  std::optional<std::int32_t> made_for;
  session.exec("SELECT max(partitions) FROM act_partition_positions WHERE projection = $1 AND partitions <> $2::int",
               db::Params().text(std::string_view(target())).number(partitions_), [&](const db::Row& row) {
                 if (!row.is_null(0)) made_for = row.int32(0);
               });
  if (made_for)
    throw std::invalid_argument("projection " + target() + ": its positions in act_partition_positions are for " +
                                std::to_string(*made_for) + " partitions, the map has " +
                                std::to_string(partitions_));
  session.exec("INSERT INTO act_partition_positions (projection, partition, partitions) "
               "SELECT $1, p, $2::int FROM generate_series(0, $2::int - 1) AS p ON CONFLICT DO NOTHING",
               db::Params().text(std::string_view(target())).number(partitions_), [](const db::Row&) {});
  if (projection_->setup) {
    Sql sql(session);
    projection_->setup(sql);
  }
  transaction.commit();
  set_up_ = true;
}

bool CombinedProjection::reads(std::int32_t partition) const {
  const std::optional<std::string>& source = projection_->route.source;
  // A literal source is one stream, in one partition; the others host none of its events.
  return !source || is_pattern(*source) || act::partition_of(*source, partitions_) == partition;
}

Step CombinedProjection::step(std::int32_t partition, const PartitionSource& source, Locking locking) {
  set_up();
  Step step;
  if (!reads(partition)) return step;
  ConnectionPool::Lease connection = read_model_->acquire();
  db::Session& session = connection.session();
  std::vector<Committed> page;
  std::int64_t started_at = 0;
  std::optional<react::HandlerFailure> failure;
  std::int32_t attempts = 0;
  {
    db::Transaction transaction(session);
    const std::optional<Position> position = lock_position(session, target(), partition, locking);
    if (!position) {
      step.skipped = true;  // another worker applies this partition now
      return step;
    }
    started_at = position->at;
    attempts = position->attempts;
    std::int64_t horizon = 0;
    {
      // Released before the handlers run: the read model may share its pool.
      ConnectionPool::Lease reading = source.pool->acquire();
      horizon = horizon_of(reading.session());
      if (horizon <= position->at) return step;
      page = react::read_page(reading.session(), *projection_, source.registry->names_read_by(*projection_),
                              position->at, horizon, kPageEvents);
    }
    // A short page holds every event it selects up to the horizon.
    step.more = page.size() >= static_cast<std::size_t>(kPageEvents);
    const std::int64_t through = step.more ? page.back().id : horizon;
    step.drained.fetched = static_cast<std::int64_t>(page.size());
    const std::vector<Committed> handed = source.registry->handed_to(*projection_, page);
    // The position's write travels with the handlers' statements.
    std::optional<std::size_t> advanced;
    failure = handed.empty() ? std::nullopt
                             : react::apply_handlers(*projection_, handed, handed.size(), session, [&] {
                                 advanced = session.queue(kAdvance, advance_params(target(), partition, through));
                               });
    if (!failure) {
      if (advanced) {
        session.collect(*advanced, [](const db::Row&) {});
      } else {
        advance(session, target(), partition, through);
      }
      transaction.commit();
      step.drained.handled = static_cast<std::int64_t>(handed.size());
      step.drained.advanced = 1;
      return step;
    }
    transaction.rollback();
    if (failure->at >= handed.size())  // no event's statement failed: the connection or the database did
      throw StoreError("projection " + target(), {}, failure->error);
    const Committed& failed = handed[failure->at];
    step.drained.add_failure(ReactionFailure{target(), failed.id, failed.name, failure->error, attempts, false,
                                             target(), failed.stream});
  }
  step.more = false;
  // Keeps the events before the failing one and records the failure, unless
  // another worker took the partition meanwhile (it meets the failure itself).
  db::Transaction transaction(session);
  const std::optional<Position> position = lock_position(session, target(), partition, Locking::kSkipLocked);
  if (!position || position->at != started_at) return step;
  const std::int64_t failed_id = *step.drained.failures.back().event_id;
  std::string error = failure->error;
  page.resize(failure->at);
  if (!page.empty()) {
    const std::vector<Committed> handed = source.registry->handed_to(*projection_, std::move(page));
    if (const std::optional<react::HandlerFailure> again = react::apply_handlers(*projection_, handed, handed.size(), session)) {
      // The events before it failed this time: keep nothing, record why.
      transaction.rollback();
      db::Transaction record(session);
      if (!lock_position(session, target(), partition, Locking::kSkipLocked)) return step;
      record_failure(session, target(), partition, again->error, failed_id);
      record.commit();
      return step;
    }
    advance(session, target(), partition, handed.back().id);
    step.drained.handled = static_cast<std::int64_t>(handed.size());
    step.drained.advanced = 1;
  }
  record_failure(session, target(), partition, error, failed_id);
  transaction.commit();
  return step;
}

std::vector<std::int64_t> CombinedProjection::positions() {
  set_up();
  std::vector<std::int64_t> positions(static_cast<std::size_t>(partitions_), 0);
  ConnectionPool::Lease connection = read_model_->acquire();
  connection.session().exec(
      "SELECT partition, position FROM act_partition_positions WHERE projection = $1 ORDER BY partition",
      db::Params().text(std::string_view(target())), [&](const db::Row& row) {
        const std::int32_t partition = row.int32(0);
        if (partition >= 0 && partition < partitions_) positions[static_cast<std::size_t>(partition)] = row.int64(1);
      });
  return positions;
}

void CombinedProjection::rewind() {
  set_up();
  ConnectionPool::Lease connection = read_model_->acquire();
  db::Session& session = connection.session();
  db::Transaction transaction(session);
  // Waits for the workers applying a page: they commit before the read model is emptied.
  // In partition order, as every other locker: two rebuilds cannot deadlock.
  session.exec("SELECT 1 FROM act_partition_positions WHERE projection = $1 ORDER BY partition FOR UPDATE",
               db::Params().text(std::string_view(target())), [](const db::Row&) {});
  if (projection_->truncate) {
    Sql sql(session);
    projection_->truncate(sql);
  }
  session.exec("UPDATE act_partition_positions SET position = 0, attempts = 0, error = NULL, failed_id = NULL, "
               "updated = now() WHERE projection = $1",
               db::Params().text(std::string_view(target())), [](const db::Row&) {});
  transaction.commit();
}

}  // namespace act::partitions
