#include "act/store.hpp"

#include <algorithm>
#include <stdexcept>

#include "act/errors.hpp"
#include "db/session.hpp"
#include "db/transaction.hpp"
#include "store/commit_params.hpp"
#include "store/event_json.hpp"
#include "store/event_rows.hpp"
#include "store/statements.hpp"

namespace act {
namespace {

using nlohmann::json;

// Runs one statement on a leased connection; the lease goes back before the caller sees the rows.
void run(ConnectionPool& pool, const db::Statement& statement, const db::Params& params,
         const std::function<void(const db::Row&)>& on_row, std::string_view subject = {}) {
  ConnectionPool::Lease lease = pool.acquire();
  lease.session().run(statement, params, on_row, subject);
}

template <class T>
T single_value(ConnectionPool& pool, const db::Statement& statement, const db::Params& params,
               T (db::Row::*read)(int) const) {
  std::optional<T> value;
  run(pool, statement, params, [&](const db::Row& row) { value = (row.*read)(0); });
  if (!value) throw StoreError(std::string(statement.operation), {}, std::string(statement.operation) + " returned no row");
  return *value;
}

json stats_streams_json(const StatsQuery& query) {
  // A list goes as a JSON array, empty too: the database reads [] as no stream.
  if (query.streams) return *query.streams;
  json selection = json::object();
  if (query.stream) selection = {{"stream", *query.stream}, {"stream_exact", query.stream_exact}};
  return selection;
}

json stats_options_json(const StatsQuery& query) {
  json options = {{"tail", query.tail}, {"count", query.count}, {"names", query.names}};
  if (!query.exclude.empty()) options["exclude"] = query.exclude;
  if (query.before) options["before"] = *query.before;
  if (query.after) options["after"] = *query.after;
  if (query.limit) options["limit"] = *query.limit;
  return options;
}

json truncate_targets_json(const std::vector<TruncateTarget>& targets) {
  json array = json::array();
  for (const TruncateTarget& target : targets) {
    json element = {{"stream", target.stream}};
    if (target.snapshot) element["snapshot"] = *target.snapshot;
    if (target.meta) element["meta"] = *target.meta;
    if (target.before) element["before"] = to_iso8601(*target.before);
    if (target.max_id) element["max_id"] = *target.max_id;
    array.push_back(std::move(element));
  }
  return array;
}

Truncated truncated_from(const db::Row& row) {
  Truncated truncated;
  truncated.stream = row.text(0);
  truncated.deleted = row.int64(1);
  truncated.id = row.int64(2);
  truncated.version = row.int32(3);
  truncated.name = row.text(4);
  if (!row.is_null(5)) truncated.before = store_rows::from_epoch_micros(row.int64(5));
  return truncated;
}

}  // namespace

Store::Store(std::shared_ptr<ConnectionPool> pool, StoreOptions options) : pool_(std::move(pool)), options_(options) {
  if (!pool_) throw std::invalid_argument("Store: no connection pool");
  if (options_.page_size <= 0) throw std::invalid_argument("Store: page_size must be positive");
}

std::vector<Committed> Store::commit(std::string_view stream, const std::vector<Message>& events, const json& meta,
                                     std::optional<std::int32_t> expected_version) {
  const db::Params params = store_params::commit(stream, events, meta, expected_version);
  std::vector<Committed> committed;
  committed.reserve(events.size());
  run(*pool_, store_sql::kCommit, params,
      [&](const db::Row& row) { committed.push_back(store_rows::committed_from(row)); }, stream);
  return committed;
}

std::vector<Committed> Store::commit_by_key(std::string_view stream, std::string_view key) {
  db::Params params;
  params.text(stream).text(key);
  std::vector<Committed> committed;
  run(*pool_, store_sql::kCommitByKey, params,
      [&](const db::Row& row) { committed.push_back(store_rows::committed_from(row)); }, stream);
  return committed;
}

namespace {


// act.query page by page: each page is read on a leased connection, which
// is back in the pool before on_event sees the page's events.
template <class Event>
std::int64_t paged_query(ConnectionPool& pool, std::int32_t page_size, const Query& query,
                         const db::Statement& statement, Event (*read)(const db::Row&),
                         const std::function<void(const Event&)>& on_event) {
  if (query.limit && *query.limit < 0) throw ValidationError("query: limit must be 0 (no limit) or more", "act.query", "limit");
  const bool limited = query.limit && *query.limit > 0;
  std::optional<std::int64_t> after = query.after;
  std::optional<std::int64_t> before = query.before;
  std::optional<json> names;
  if (query.names) names = json(*query.names);
  std::int64_t delivered = 0;
  std::vector<Event> page;
  for (;;) {
    const std::int64_t wanted = limited ? std::min<std::int64_t>(page_size, *query.limit - delivered) : page_size;
    if (wanted <= 0) break;
    db::Params params;
    params.text(query.stream).number(after).number(before).json(names).number(std::optional<std::int64_t>(wanted))
        .boolean(query.backward).boolean(query.stream_exact).time(query.created_after).time(query.created_before)
        .text(query.correlation).boolean(query.with_snaps);
    page.clear();
    run(pool, statement, params, [&](const db::Row& row) { page.push_back(read(row)); });
    for (const Event& event : page) on_event(event);
    delivered += static_cast<std::int64_t>(page.size());
    if (static_cast<std::int64_t>(page.size()) < wanted) break;
    // The next page continues past the last id seen, in the read's direction.
    (query.backward ? before : after) = page.back().id;
  }
  return delivered;
}

}  // namespace

std::int64_t Store::query(const Query& query, const std::function<void(const Committed&)>& on_event) {
  return paged_query(*pool_, options_.page_size, query, store_sql::kQuery, &store_rows::committed_from, on_event);
}

std::int64_t Store::query_stored(const Query& query, const std::function<void(const StoredEvent&)>& on_event) {
  return paged_query(*pool_, options_.page_size, query, store_sql::kQueryStored, &store_rows::stored_from, on_event);
}

std::int64_t Store::read(const EventQuery& query, std::int64_t after,
                         const std::function<void(const Committed&)>& on_event) {
  const json query_json = query.to_json();
  std::int64_t delivered = 0;
  std::vector<Committed> page;
  for (;;) {
    page.clear();
    run(*pool_, store_sql::kRead, db::Params().json(query_json).number(after).number(std::optional(options_.page_size)),
        [&](const db::Row& row) { page.push_back(store_rows::read_from(row)); });
    for (const Committed& event : page) on_event(event);
    delivered += static_cast<std::int64_t>(page.size());
    if (static_cast<std::int32_t>(page.size()) < options_.page_size) break;
    after = page.back().id;  // the next page continues past the last id seen
  }
  return delivered;
}

std::vector<Committed> Store::append(const std::vector<StreamMessage>& events,
                                     const std::optional<AppendCondition>& condition, const json& meta) {
  std::vector<Committed> rows;
  run(*pool_, store_sql::kAppend, store_params::append(events, condition, meta),
      [&](const db::Row& row) { rows.push_back(store_rows::committed_from(row)); });
  // Rows come in id order, which is the events' order: each gets its own tags back.
  for (std::size_t i = 0; i < rows.size() && i < events.size(); ++i) rows[i].tags = events[i].message.tags;
  return rows;
}

std::int32_t Store::version(std::string_view stream) {
  return single_value(*pool_, store_sql::kVersion, db::Params().text(stream), &db::Row::int32);
}

std::int64_t Store::max_event_id() {
  return single_value(*pool_, store_sql::kMaxEventId, db::Params(), &db::Row::int64);
}

std::int64_t Store::horizon() { return single_value(*pool_, store_sql::kHorizon, db::Params(), &db::Row::int64); }

std::int64_t Store::wait(std::int64_t after, std::chrono::milliseconds timeout) {
  return single_value(*pool_, store_sql::kWait, db::Params().number(after).number(timeout.count()), &db::Row::int64);
}

std::vector<StreamStats> Store::query_stats(const StatsQuery& query) {
  db::Params params;
  params.json(stats_streams_json(query)).json(stats_options_json(query));
  std::vector<StreamStats> rows;
  run(*pool_, store_sql::kQueryStats, params, [&](const db::Row& row) {
    StreamStats stats;
    stats.stream = row.text(0);
    stats.head = store_rows::committed_from_json(row.text(1));
    if (!row.is_null(2)) stats.tail = store_rows::committed_from_json(row.text(2));
    if (!row.is_null(3)) stats.count = row.int64(3);
    if (!row.is_null(4)) stats.names = json::parse(row.text(4));
    rows.push_back(std::move(stats));
  });
  return rows;
}

std::vector<Truncated> Store::truncate(const std::vector<TruncateTarget>& targets) {
  std::vector<Truncated> rows;
  run(*pool_, store_sql::kTruncate, db::Params().json(truncate_targets_json(targets)),
      [&](const db::Row& row) { rows.push_back(truncated_from(row)); });
  return rows;
}

Truncated Store::truncate_at(const TruncateTarget& target, std::int32_t head) {
  if (target.before) throw std::invalid_argument("truncate_at(): a full close, not a window");
  ConnectionPool::Lease lease = pool_->acquire();
  db::Session& session = lease.session();
  db::Transaction transaction(session);
  // Before any read: the snapshot act.truncate checks the stream against.
  session.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", db::Params(), [](const db::Row&) {});
  std::int32_t actual = -1;
  session.run(store_sql::kVersion, db::Params().text(std::string_view(target.stream)), [&](const db::Row& row) { actual = row.int32(0); });
  if (actual != head) throw ConcurrencyError(target.stream, head, actual);
  std::optional<Truncated> truncated;
  session.run(store_sql::kTruncate, db::Params().json(truncate_targets_json({target})),
              [&](const db::Row& row) { truncated = truncated_from(row); }, target.stream);
  transaction.commit();
  if (!truncated) throw StoreError("act.truncate", {}, "act.truncate returned no row for " + target.stream);
  return *truncated;
}

std::int64_t Store::forget_pii(std::string_view stream) {
  return single_value(*pool_, store_sql::kForgetPii, db::Params().text(stream), &db::Row::int64);
}

std::vector<ChainCheck> Store::verify(std::optional<std::string> stream) {
  std::vector<ChainCheck> rows;
  run(*pool_, store_sql::kVerify, db::Params().text(stream),
      [&](const db::Row& row) { rows.push_back(store_rows::chain_check_from(row)); });
  return rows;
}

Timestamp Store::server_time(std::string_view text) {
  return store_rows::from_epoch_micros(
      single_value(*pool_, store_sql::kServerTime, db::Params().text(text), &db::Row::int64));
}

void Store::wait_durable() { run(*pool_, store_sql::kWaitDurable, db::Params(), [](const db::Row&) {}); }

void ensure_extension(ConnectionPool& pool) {
  run(pool, store_sql::kCreateExtension, db::Params(), [](const db::Row&) {});
}

}  // namespace act
