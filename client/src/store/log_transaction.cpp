// LogTransaction: the Merkle log's reads and checkpoint writes in one transaction on one pooled connection.
#include "act/log_transaction.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

#include "act/pool.hpp"
#include "db/session.hpp"
#include "db/transaction.hpp"
#include "store/event_rows.hpp"
#include "store/log_statements.hpp"

namespace act {

struct LogTransaction::State {
  State(std::shared_ptr<ConnectionPool> connections, Access kind)
      : pool(std::move(connections)), lease(pool->acquire()), transaction(lease.session()), access(kind) {
    if (access == Access::kSnapshot)
      lease.session().exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", db::Params(),
                           [](const db::Row&) {});
  }

  db::Session& session() { return lease.session(); }

  std::shared_ptr<ConnectionPool> pool;  // outlives the lease
  ConnectionPool::Lease lease;
  db::Transaction transaction;
  Access access;
};

namespace {

using store_rows::optional_int64;
using store_rows::optional_text;

ChainedEvent chained_from(const db::Row& row) {
  return {store_rows::stored_from(row), optional_text(row, 8),
          nlohmann::json::parse(row.text(9)).get<std::vector<std::string>>()};
}

LogEntry entry_from(const db::Row& row) { return {row.int64(0), optional_int64(row, 1), optional_text(row, 2)}; }

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> parts;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    parts.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

}  // namespace

LogTransaction::LogTransaction(std::shared_ptr<ConnectionPool> pool, Access access) {
  if (!pool) throw std::invalid_argument("LogTransaction: no connection pool");
  state_ = std::make_unique<State>(std::move(pool), access);
}
LogTransaction::~LogTransaction() = default;
LogTransaction::LogTransaction(LogTransaction&&) noexcept = default;
LogTransaction& LogTransaction::operator=(LogTransaction&&) noexcept = default;

std::int64_t LogTransaction::log_size() {
  std::int64_t size = 0;
  state_->session().run(store_sql::kLogSize, db::Params(), [&](const db::Row& row) { size = row.int64(0); });
  return size;
}

std::vector<StoredCheckpoint> LogTransaction::checkpoints_below(std::int64_t below_size, std::int32_t limit) {
  std::vector<StoredCheckpoint> rows;
  state_->session().run(store_sql::kCheckpointsBelow, db::Params().number(below_size).number(limit),
                        [&](const db::Row& row) { rows.push_back(store_rows::stored_checkpoint_from(row)); });
  return rows;
}

std::optional<std::string> LogTransaction::checkpoint_note(std::int64_t size) {
  std::optional<std::string> note;
  state_->session().run(store_sql::kCheckpointNote, db::Params().number(size),
                        [&](const db::Row& row) { note = optional_text(row, 0); });
  return note;
}

std::vector<std::string> LogTransaction::consistency_proof(std::int64_t old_size, std::int64_t new_size) {
  std::vector<std::string> proof;
  state_->session().run(store_sql::kConsistencyProof, db::Params().number(old_size).number(new_size),
                        [&](const db::Row& row) { proof.emplace_back(row.text(0)); });
  return proof;
}

InclusionProof LogTransaction::inclusion_proof(std::int64_t id, std::int64_t tree_size) {
  std::optional<InclusionProof> proof;
  state_->session().run(store_sql::kInclusionProof, db::Params().number(id).number(tree_size),
                        [&](const db::Row& row) {
                          proof = InclusionProof{row.int64(0), row.int64(1), optional_text(row, 2),
                                                 row.is_null(3) ? std::vector<std::string>{} : split_commas(row.text(3)),
                                                 optional_text(row, 4)};
                        });
  // act.prove_inclusion raises for an id it cannot prove; a row is its answer.
  if (!proof) throw std::logic_error("act.prove_inclusion returned no row");
  return *proof;
}

std::vector<LogEntry> LogTransaction::entries(std::int64_t from, std::int64_t to) {
  std::vector<LogEntry> rows;
  state_->session().run(store_sql::kLogEntries, db::Params().number(from).number(to),
                        [&](const db::Row& row) { rows.push_back(entry_from(row)); });
  return rows;
}

std::vector<LogEntryPresence> LogTransaction::entries_with_presence(std::int64_t from, std::int64_t to) {
  std::vector<LogEntryPresence> rows;
  state_->session().run(store_sql::kLogEntriesPresence, db::Params().number(from).number(to),
                        [&](const db::Row& row) { rows.push_back({entry_from(row), row.boolean(3)}); });
  return rows;
}

std::map<std::int64_t, std::string> LogTransaction::hash_tiles(std::int32_t level,
                                                               const std::vector<std::int64_t>& indexes) {
  std::map<std::int64_t, std::string> tiles;
  if (indexes.empty()) return tiles;
  state_->session().run(store_sql::kHashTiles, db::Params().number(level).json(nlohmann::json(indexes)),
                        [&](const db::Row& row) { tiles.emplace(row.int64(0), row.bytes(1)); });
  return tiles;
}

std::map<std::int64_t, std::string> LogTransaction::entry_bundles(const std::vector<std::int64_t>& indexes) {
  std::map<std::int64_t, std::string> bundles;
  if (indexes.empty()) return bundles;
  state_->session().run(store_sql::kEntryBundles, db::Params().json(nlohmann::json(indexes)),
                        [&](const db::Row& row) { bundles.emplace(row.int64(0), row.bytes(1)); });
  return bundles;
}

std::vector<ChainedEvent> LogTransaction::events_between(std::int64_t after_id, std::int64_t up_to_id,
                                                         std::int32_t limit) {
  std::vector<ChainedEvent> events;
  state_->session().run(store_sql::kChainedEventsBetween, db::Params().number(after_id).number(up_to_id).number(limit),
                        [&](const db::Row& row) { events.push_back(chained_from(row)); });
  return events;
}

std::optional<ChainedEvent> LogTransaction::event(std::int64_t id) {
  std::optional<ChainedEvent> event;
  state_->session().run(store_sql::kChainedEvent, db::Params().number(id),
                        [&](const db::Row& row) { event = chained_from(row); });
  return event;
}

std::vector<ChainedEvent> LogTransaction::stream_events(const std::string& stream, std::int32_t after_version,
                                                        std::int32_t up_to_version, std::int32_t limit) {
  std::vector<ChainedEvent> events;
  state_->session().run(
      store_sql::kChainedStreamEvents,
      db::Params().text(std::string_view(stream)).number(after_version).number(up_to_version).number(limit),
      [&](const db::Row& row) { events.push_back(chained_from(row)); }, stream);
  return events;
}

std::vector<StreamAnchor> LogTransaction::stream_anchors() {
  std::vector<StreamAnchor> anchors;
  state_->session().run(store_sql::kStreamAnchors, db::Params(), [&](const db::Row& row) {
    anchors.push_back({std::string(row.text(0)), row.int32(1), optional_text(row, 2)});
  });
  return anchors;
}

std::vector<RemovalRun> LogTransaction::removal_runs() {
  std::vector<RemovalRun> runs;
  state_->session().run(store_sql::kRemovalRuns, db::Params(), [&](const db::Row& row) {
    runs.push_back({row.int64(0), optional_int64(row, 1), optional_int64(row, 2), optional_int64(row, 3)});
  });
  return runs;
}

std::string LogTransaction::checkpoint(bool sign) {
  if (state_->access != Access::kWrite) throw std::logic_error("LogTransaction::checkpoint: a snapshot only reads");
  std::string text;
  state_->session().run(store_sql::kCheckpoint, db::Params().boolean(sign),
                        [&](const db::Row& row) { text = row.text(0); });
  return text;
}

std::int64_t LogTransaction::add_checkpoint_signature(const std::string& note) {
  if (state_->access != Access::kWrite)
    throw std::logic_error("LogTransaction::add_checkpoint_signature: a snapshot only reads");
  std::int64_t size = 0;
  state_->session().run(store_sql::kAddCheckpointSignature, db::Params().text(std::string_view(note)),
                        [&](const db::Row& row) { size = row.int64(0); });
  return size;
}

void LogTransaction::commit() { state_->transaction.commit(); }

}  // namespace act
