// LogStore: the reads an auditor makes of the log, each one round trip on a pooled connection.
#include <limits>
#include <stdexcept>

#include "act/log_store.hpp"
#include "db/session.hpp"
#include "db/transaction.hpp"
#include "store/event_rows.hpp"
#include "store/log_statements.hpp"
#include "store/statements.hpp"

namespace act {

LogStore::LogStore(std::shared_ptr<ConnectionPool> pool) : pool_(std::move(pool)) {
  if (!pool_) throw std::invalid_argument("LogStore: no connection pool");
}

StreamPage LogStore::stream_page(const std::string& after, std::int32_t page_size,
                                 const std::optional<std::string>& pattern) {
  StreamPage page;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kStreamPage,
                           db::Params().text(std::string_view(after)).number(page_size).text(pattern),
                           [&](const db::Row& row) {
                             ++page.read;
                             page.last = row.text(0);
                             if (row.boolean(1)) page.streams.push_back({page.last, row.int64(2)});
                           });
  return page;
}

std::optional<std::int64_t> LogStore::stream_span(const std::string& stream) {
  std::optional<std::int64_t> span;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kStreamSpan, db::Params().text(std::string_view(stream)),
                           [&](const db::Row& row) {
                             if (!row.is_null(0)) span = row.int64(0);
                           });
  return span;
}

std::vector<ChainCheck> LogStore::verify_streams(const std::vector<std::string>& streams) {
  std::vector<ChainCheck> checks;
  if (streams.empty()) return checks;
  ConnectionPool::Lease connection = pool_->acquire();
  db::Session& session = connection.session();
  db::Transaction transaction(session);
  // SET LOCAL: the setting ends with the batch, the pooled connection keeps none.
  session.exec("SET LOCAL max_parallel_workers_per_gather = 0", db::Params(), [](const db::Row&) {});
  session.run(store_sql::kVerifyStreams, db::Params().json(nlohmann::json(streams)),
              [&](const db::Row& row) { checks.push_back(store_rows::chain_check_from(row)); });
  transaction.commit();
  return checks;
}

ChainStart LogStore::chain_start(const std::string& stream, std::int32_t first_bad_version) {
  ChainStart start;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kChainStart,
                           db::Params().text(std::string_view(stream)).number(first_bad_version),
                           [&](const db::Row& row) {
                             if (!row.is_null(0)) start.previous_version = row.int32(0);
                             start.anchored = row.boolean(1);
                           });
  return start;
}

std::vector<StoredCheckpoint> LogStore::checkpoints(std::int32_t max_rows) {
  std::vector<StoredCheckpoint> rows;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(
      store_sql::kCheckpointsBelow,
      db::Params().number(std::numeric_limits<std::int64_t>::max()).number(max_rows),
      [&](const db::Row& row) { rows.push_back(store_rows::stored_checkpoint_from(row)); });
  return rows;
}

std::vector<LogProblem> LogStore::verify_log(std::int64_t from_size, std::optional<std::int64_t> to_size) {
  std::vector<LogProblem> problems;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kVerifyLog, db::Params().number(from_size).number(to_size),
                           [&](const db::Row& row) {
                             problems.push_back(
                                 {row.int64(0), store_rows::optional_int64(row, 1), std::string(row.text(2))});
                           });
  return problems;
}

std::vector<std::string> LogStore::verifier_keys() {
  std::vector<std::string> keys;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kVerifierKeys, db::Params(),
                           [&](const db::Row& row) { keys.emplace_back(row.text(0)); });
  return keys;
}

LogTransaction LogStore::snapshot() { return LogTransaction(pool_, LogTransaction::Access::kSnapshot); }

LogTransaction LogStore::transaction() { return LogTransaction(pool_, LogTransaction::Access::kWrite); }

}  // namespace act
