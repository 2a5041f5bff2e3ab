// act::LogStore: the streams with events page by page, hash chains checked
// in batches, what precedes a broken chain; and Store::query_stored.
#include <gtest/gtest.h>

#include <algorithm>

#include "db/session.hpp"
#include "support/database.hpp"

namespace act::test {
namespace {

class LogStoreTest : public DatabaseTest {
 protected:
  LogStore log() { return LogStore(pool_); }
  void commit_events(const std::string& name, int count) {
    std::vector<Message> events;
    for (int i = 0; i < count; ++i) events.push_back({"Ticked", {{"n", i}}, std::nullopt});
    store_->commit(name, events);
  }
};

TEST_F(LogStoreTest, StreamPagesWalkEveryNameOnceAndMatchThePattern) {
  const std::string prefix = stream("walk");
  for (int i = 0; i < 5; ++i) commit_events(prefix + "-" + std::to_string(i), i + 1);
  commit_events(prefix + "-1x", 1);  // between -1 and -2, not matching: a page that reads it goes on
  std::vector<StreamSpan> seen;
  std::string after;
  for (;;) {
    const StreamPage page = log().stream_page(after, 2, "^" + prefix + "-[0-3]$");
    EXPECT_LE(page.read, 2);
    seen.insert(seen.end(), page.streams.begin(), page.streams.end());
    if (page.read < 2) break;
    EXPECT_GT(page.last, after) << "pages move forward";
    after = page.last;
  }
  ASSERT_EQ(seen.size(), 4u) << "the matching names of every page, the others read past";
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(seen[static_cast<std::size_t>(i)].stream, prefix + "-" + std::to_string(i));
    EXPECT_EQ(seen[static_cast<std::size_t>(i)].events, i + 1);
  }
  EXPECT_EQ(log().stream_span(prefix + "-4"), 5);
  EXPECT_FALSE(log().stream_span(prefix + "-none").has_value());
  try {
    (void)log().stream_page("", 10, "(");
    FAIL() << "a pattern the server cannot compile was taken";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.sqlstate(), "2201B");
  }
}

TEST_F(LogStoreTest, VerifyStreamsChecksABatchInOrderAndNamesTheGap) {
  const std::string intact = stream("intact");
  const std::string gapped = stream("gapped");
  const std::string changed = stream("changed");
  commit_events(intact, 3);
  commit_events(gapped, 4);
  commit_events(changed, 2);
  database().sql("DELETE FROM act.events WHERE stream = '" + gapped + "' AND version = 1");
  database().sql("UPDATE act.events SET data = '{\"n\": 9}' WHERE stream = '" + changed + "' AND version = 1");

  const auto checks = log().verify_streams({gapped, intact, stream("empty"), changed});
  ASSERT_EQ(checks.size(), 3u) << "a stream without events has no row";
  EXPECT_EQ(checks[0].stream, gapped);
  EXPECT_FALSE(checks[0].valid);
  EXPECT_EQ(checks[0].first_bad_version, 2);
  EXPECT_EQ(checks[1].stream, intact);
  EXPECT_TRUE(checks[1].valid);
  EXPECT_EQ(checks[1].events, 3);
  EXPECT_EQ(checks[2].stream, changed);
  EXPECT_EQ(checks[2].first_bad_version, 1);
  EXPECT_TRUE(log().verify_streams({}).empty());

  const ChainStart gap = log().chain_start(gapped, 2);
  EXPECT_EQ(gap.previous_version, 0) << "version 1 is missing";
  EXPECT_FALSE(gap.anchored);
  EXPECT_EQ(log().chain_start(changed, 1).previous_version, 0);
  EXPECT_FALSE(log().chain_start(changed, 0).previous_version.has_value());
  // The most recently returned connection is the one the batch ran on.
  std::string workers;
  pool_->acquire().session().exec("SHOW max_parallel_workers_per_gather", db::Params(),
                                  [&](const db::Row& row) { workers = row.text(0); });
  EXPECT_NE(workers, "0") << "the batch's setting did not outlive it";
}

TEST_F(LogStoreTest, QueryStoredKeepsTheJsonAsStored) {
  const std::string s = stream();
  database().sql("SELECT count(*) FROM act.commit('" + s +
                 "', '[{\"name\": \"Added\", \"data\": {\"price\": 12.50, \"big\": 12345678901234567890}, "
                 "\"pii\": {\"email\": \"a@example.org\"}}]')");
  Query query;
  query.stream = s;
  std::vector<StoredEvent> events;
  EXPECT_EQ(store_->query_stored(query, [&](const StoredEvent& event) { events.push_back(event); }), 1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, R"({"big": 12345678901234567890, "price": 12.50})");
  EXPECT_EQ(events[0].pii, R"({"email": "a@example.org"})");
  EXPECT_EQ(events[0].name, "Added");
  EXPECT_EQ(events[0].version, 0);
  std::vector<Committed> parsed;
  store_->query(query, [&](const Committed& event) { parsed.push_back(event); });
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(events[0].id, parsed[0].id);
  EXPECT_EQ(events[0].created, parsed[0].created);
}

TEST_F(LogStoreTest, CheckpointsComeNewestFirst) {
  store_->commit(stream(), {{"Opened", {}, {}}});
  database().sql("SELECT act.checkpoint()");
  store_->commit(stream(), {{"Opened", {}, {}}});
  database().sql("SELECT act.checkpoint()");
  const std::int64_t newest = std::stoll(database().sql("SELECT max(size) FROM act.checkpoints"));
  const auto last = log().checkpoints(1);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].size, newest);
  ASSERT_TRUE(last[0].note.has_value());
  EXPECT_NE(last[0].note->find("\n" + std::to_string(newest) + "\n"), std::string::npos) << *last[0].note;
  const auto all = log().checkpoints(100);
  ASSERT_GE(all.size(), 2u);
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end(), [](const StoredCheckpoint& a, const StoredCheckpoint& b) {
    return a.size > b.size;
  })) << "the newest first";
}

TEST_F(LogStoreTest, VerifyLogNamesATamperedEventInItsRange) {
  const std::string source = stream();
  const std::int64_t id = store_->commit(source, {{"Opened", {{"n", 1}}, {}}})[0].id;
  database().sql("SELECT act.seal()");
  const std::int64_t position = std::stoll(database().sql("SELECT act.log_position(" + std::to_string(id) + ")"));
  EXPECT_TRUE(log().verify_log(position, position + 1).empty()) << "an untouched event verifies";
  database().sql("UPDATE act.events SET data = '{\"n\": 2}' WHERE id = " + std::to_string(id));
  const auto problems = log().verify_log(position, position + 1);
  database().sql("UPDATE act.events SET data = '{\"n\": 1}' WHERE id = " + std::to_string(id));  // whole again
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].position, position);
  EXPECT_EQ(problems[0].id, id);
  EXPECT_FALSE(problems[0].problem.empty());
}

}  // namespace
}  // namespace act::test
