// The typed store over the act SQL functions.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "support/database.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

std::vector<Committed> read_all(Store& store, const Query& query) {
  std::vector<Committed> events;
  store.query(query, [&](const Committed& event) { events.push_back(event); });
  return events;
}

std::vector<std::int64_t> ids_of(const std::vector<Committed>& events) {
  std::vector<std::int64_t> ids;
  for (const auto& event : events) ids.push_back(event.id);
  return ids;
}

class StoreEmptyLogTest : public DatabaseTest {};

TEST_F(StoreEmptyLogTest, AnEmptyLogHasNoHead) {
  EXPECT_EQ(store_->max_event_id(), -1);
  EXPECT_EQ(store_->horizon(), -1);
  EXPECT_EQ(store_->version("nothing"), -1);
  EXPECT_TRUE(store_->query_stats().empty());
  EXPECT_TRUE(store_->verify().empty());
}

class StoreTest : public DatabaseTest {};

TEST_F(StoreTest, CommitReturnsTypedRows) {
  const std::string s = stream();
  const auto before = std::chrono::system_clock::now();
  const auto rows = store_->commit(s,
                                   {{"Placed", {{"sku", "A1"}, {"qty", 2}}, json{{"email", "a@example.com"}}},
                                    {"Paid", {{"amount", 40}}, {}}},
                                   {{"correlation", "checkout-7"}}, -1);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].stream, s);
  EXPECT_EQ(rows[0].version, 0);
  EXPECT_EQ(rows[1].version, 1);
  EXPECT_EQ(rows[1].id, rows[0].id + 1);
  EXPECT_EQ(rows[0].name, "Placed");
  EXPECT_EQ(rows[0].data, (json{{"qty", 2}, {"sku", "A1"}}));
  EXPECT_EQ(rows[0].meta, (json{{"correlation", "checkout-7"}}));
  ASSERT_TRUE(rows[0].pii.has_value());
  EXPECT_EQ(*rows[0].pii, (json{{"email", "a@example.com"}}));
  EXPECT_FALSE(rows[1].pii.has_value());
  EXPECT_EQ(rows[0].created, rows[1].created) << "one transaction time per commit";
  EXPECT_LT(std::chrono::abs(rows[0].created - std::chrono::time_point_cast<std::chrono::microseconds>(before)), 60s);
  EXPECT_EQ(rows[0].hash.size(), 64u);
  EXPECT_NE(rows[0].hash, rows[1].hash);
  EXPECT_EQ(store_->version(s), 1);
  EXPECT_GE(store_->max_event_id(), rows[1].id);
  EXPECT_GE(store_->horizon(), rows[1].id);
}

TEST_F(StoreTest, QueryStreamsPageByPage) {
  Store paged(pool_, StoreOptions{10});
  const std::string s = stream();
  for (int batch = 0; batch < 7; ++batch) {
    std::vector<Message> five;
    for (int i = 0; i < 5; ++i) five.push_back({"Tick", {{"n", batch * 5 + i}}, {}});
    paged.commit(s, five);
  }
  Query query;
  query.stream = s;
  const auto sent = statements(*pool_);
  int expected_n = 0;
  const auto delivered = paged.query(query, [&](const Committed& event) {
    EXPECT_EQ(event.data.at("n").get<int>(), expected_n) << "in order, none skipped";
    EXPECT_EQ(event.version, expected_n);
    ++expected_n;
  });
  EXPECT_EQ(delivered, 35);
  EXPECT_EQ(expected_n, 35);
  EXPECT_EQ(statements(*pool_) - sent, 4u) << "35 events in pages of 10: four round trips";

  query.limit = 25;
  const auto limited_from = statements(*pool_);
  EXPECT_EQ(read_all(paged, query).size(), 25u);
  EXPECT_EQ(statements(*pool_) - limited_from, 3u);

  query.limit.reset();
  query.backward = true;
  const auto backward = read_all(paged, query);
  ASSERT_EQ(backward.size(), 35u);
  EXPECT_EQ(backward.front().version, 34);
  EXPECT_EQ(backward.back().version, 0);
}

TEST_F(StoreTest, TheCallbackMayUseTheStoreWhileReading) {
  auto pool = database().pool(PoolOptions{1, 2s});
  Store store(pool, StoreOptions{2});
  const std::string s = stream();
  store.commit(s, {{"A", {}, {}}, {"B", {}, {}}, {"C", {}, {}}});
  Query query;
  query.stream = s;
  int versions_checked = 0;
  store.query(query, [&](const Committed&) {
    EXPECT_EQ(store.version(s), 2);  // the only connection is free again here
    ++versions_checked;
  });
  EXPECT_EQ(versions_checked, 3);
}

TEST_F(StoreTest, QueryFilters) {
  const std::string a = stream("filters-a");
  const std::string b = stream("filters-b");
  const auto first = store_->commit(a, {{"Placed", {}, {}}, {"Paid", {}, {}}}, {{"correlation", "c-1"}});
  std::this_thread::sleep_for(5ms);
  const auto second = store_->commit(b, {{"Placed", {}, {}}}, {{"correlation", "c-2"}});

  Query by_name;
  by_name.stream = "filters-[ab]-QueryFilters-.*";
  by_name.stream_exact = false;
  by_name.names = std::vector<std::string>{"Placed"};
  EXPECT_EQ(ids_of(read_all(*store_, by_name)), (std::vector<std::int64_t>{first[0].id, second[0].id}));

  Query by_correlation;
  by_correlation.correlation = "c-1";
  EXPECT_EQ(ids_of(read_all(*store_, by_correlation)), (std::vector<std::int64_t>{first[0].id, first[1].id}));

  Query by_time;
  by_time.stream = "filters-[ab]-QueryFilters-.*";
  by_time.stream_exact = false;
  by_time.created_after = first[0].created;
  EXPECT_EQ(ids_of(read_all(*store_, by_time)), (std::vector<std::int64_t>{second[0].id}));
  by_time.created_after.reset();
  by_time.created_before = second[0].created;
  EXPECT_EQ(ids_of(read_all(*store_, by_time)), (std::vector<std::int64_t>{first[0].id, first[1].id}));

  Query window;
  window.after = first[0].id;
  window.before = second[0].id;
  EXPECT_EQ(ids_of(read_all(*store_, window)), (std::vector<std::int64_t>{first[1].id}));
}

TEST_F(StoreTest, SnapshotsOnlyWhenAskedFor) {
  const std::string s = stream();
  store_->commit(s, {{"A", {}, {}}, {"B", {}, {}}});
  const auto snapshot = store_->commit(s, {{"__snapshot__", {{"count", 2}}, {}}});
  store_->commit(s, {{"C", {}, {}}});
  Query query;
  query.stream = s;
  EXPECT_EQ(read_all(*store_, query).size(), 3u) << "no snapshot by default";
  query.with_snaps = true;
  const auto resumed = read_all(*store_, query);
  ASSERT_EQ(resumed.size(), 2u) << "one exact stream with snapshots resumes at the latest one";
  EXPECT_EQ(resumed[0].id, snapshot[0].id);
  EXPECT_EQ(resumed[1].name, "C");
}

TEST_F(StoreTest, WaitReturnsTheHorizon) {
  const auto rows = store_->commit(stream(), {{"A", {}, {}}});
  EXPECT_GE(store_->wait(rows[0].id - 1, 5s), rows[0].id) << "already past: no waiting";
  const auto started = std::chrono::steady_clock::now();
  const auto horizon = store_->wait(store_->horizon(), 50ms);
  EXPECT_GE(std::chrono::steady_clock::now() - started, 40ms);
  EXPECT_EQ(horizon, store_->horizon());
}

TEST_F(StoreTest, QueryStatsDescribesStreams) {
  const std::string s = stream();
  const auto rows = store_->commit(s, {{"A", {{"n", 1}}, {}}, {"B", {}, {}}, {"A", {{"n", 2}}, {}}});
  StatsQuery query;
  query.streams = std::vector<std::string>{s};
  query.tail = true;
  query.count = true;
  query.names = true;
  const auto stats = store_->query_stats(query);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].stream, s);
  EXPECT_EQ(stats[0].head.id, rows[2].id);
  EXPECT_EQ(stats[0].head.data, (json{{"n", 2}}));
  EXPECT_EQ(stats[0].head.created, rows[2].created) << "the jsonb timestamp parses to the same instant";
  ASSERT_TRUE(stats[0].tail);
  EXPECT_EQ(stats[0].tail->version, 0);
  EXPECT_EQ(stats[0].count, 3);
  EXPECT_EQ(stats[0].names, (json{{"A", 2}, {"B", 1}}));

  StatsQuery plain;
  plain.stream = s;
  plain.exclude = {"A"};
  const auto without_a = store_->query_stats(plain);
  ASSERT_EQ(without_a.size(), 1u);
  EXPECT_EQ(without_a[0].head.name, "B");
  EXPECT_FALSE(without_a[0].tail);
  EXPECT_FALSE(without_a[0].count);

  StatsQuery none;
  none.streams = std::vector<std::string>{};
  EXPECT_TRUE(store_->query_stats(none).empty()) << "an empty list selects no stream, not every stream";
}

TEST_F(StoreTest, TruncateSeedsClosesAndTrims) {
  const std::string seeded = stream("seeded");
  const std::string closed = stream("closed");
  store_->commit(seeded, {{"A", {}, {}}, {"B", {}, {}}});
  store_->commit(closed, {{"A", {}, {}}});
  const auto rows = store_->truncate({TruncateTarget{seeded, json{{"count", 2}}, {}, {}, {}},
                                      TruncateTarget{closed, {}, {}, {}, {}}});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].stream, seeded);
  EXPECT_EQ(rows[0].deleted, 2);
  EXPECT_EQ(rows[0].name, "__snapshot__");
  EXPECT_EQ(rows[0].version, 0);
  EXPECT_FALSE(rows[0].before);
  EXPECT_EQ(rows[1].name, "__tombstone__");
  EXPECT_EQ(store_->version(seeded), 0);

  // The windowed form drops what precedes the latest snapshot before the time.
  const auto later = store_->commit(seeded, {{"C", {}, {}}});
  const auto cutoff = later[0].created + 1s;
  const auto trimmed = store_->truncate({TruncateTarget{seeded, {}, {}, cutoff, {}}});
  ASSERT_EQ(trimmed.size(), 1u);
  EXPECT_EQ(trimmed[0].deleted, 0) << "the seed snapshot is the stream's first event";
  ASSERT_TRUE(trimmed[0].before);
  EXPECT_EQ(*trimmed[0].before, cutoff);
}

TEST_F(StoreTest, ForgetPiiKeepsTheChainValid) {
  const std::string s = stream();
  store_->commit(s, {{"Registered", {{"plan", "pro"}}, json{{"email", "x@example.com"}}}, {"Noted", {}, {}}});
  EXPECT_EQ(store_->forget_pii(s), 1);
  EXPECT_EQ(store_->forget_pii(s), 0);
  Query query;
  query.stream = s;
  for (const auto& event : read_all(*store_, query)) EXPECT_FALSE(event.pii) << event.name;
  const auto checks = store_->verify(s);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].stream, s);
  EXPECT_EQ(checks[0].events, 2);
  EXPECT_TRUE(checks[0].valid);
  EXPECT_FALSE(checks[0].first_bad_version);
}

TEST_F(StoreTest, VerifyFindsATamperedEvent) {
  const std::string s = stream();
  store_->commit(s, {{"A", {{"n", 1}}, {}}, {"B", {{"n", 2}}, {}}, {"C", {{"n", 3}}, {}}});
  database().sql("UPDATE act.events SET data = '{\"n\": 20}' WHERE stream = '" + s + "' AND version = 1");
  const auto checks = store_->verify(s);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_FALSE(checks[0].valid);
  EXPECT_EQ(checks[0].first_bad_version, 1);
}

TEST_F(StoreTest, EnsureExtensionIsIdempotent) {
  EXPECT_NO_THROW(ensure_extension(*pool_));
  EXPECT_EQ(database().sql("SELECT count(*) FROM pg_extension WHERE extname = 'pg_act'"), "1");
}

}  // namespace
}  // namespace act::test
