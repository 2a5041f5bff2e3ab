// Loading: snapshots every N events, loads that start at a snapshot, time travel.
#include <gtest/gtest.h>

#include <thread>

#include "support/counter_app.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class AppLoadTest : public DatabaseTest {
 protected:
  std::vector<Committed> events_of(const std::string& s) {
    std::vector<Committed> events;
    Query query;
    query.stream = s;
    query.with_snaps = false;
    store_->query(query, [&](const Committed& event) { events.push_back(event); });
    return events;
  }

  int snapshots_in(const std::string& s) {
    int count = 0;
    Query query;
    query.stream = s;
    query.names = std::vector<std::string>{std::string(kSnapshotEvent)};
    query.with_snaps = true;
    query.after = 0;  // from the start, not from the latest snapshot
    store_->query(query, [&](const Committed&) { ++count; });
    return count;
  }
};

TEST_F(AppLoadTest, SnapshotsEveryNEventsAndLoadsStartThere) {
  const auto counter = counter_state({.snap_every = 3});
  auto snapping = app(pool_).with(counter).build();
  const std::string s = stream();
  int snapshotted = 0;
  for (int i = 0; i < 7; ++i) {
    if (snapping.do_action("increment", {s, kAnn, {}}, Increment{1}).snapshotted) ++snapshotted;
  }
  EXPECT_EQ(snapshotted, 2) << "after the 3rd and the 6th event";
  EXPECT_EQ(snapshots_in(s), 2);
  EXPECT_EQ(snapping.stats().snapshots, 2u);
  // versions: 0 1 2 [snap 3] 4 5 6 [snap 7] 8
  EXPECT_EQ(store_->version(s), 8);

  snapping.clear_cache();
  const auto loaded = snapping.load(counter, s);
  EXPECT_FALSE(loaded.cache_hit);
  EXPECT_EQ(loaded.state.count, 7);
  EXPECT_EQ(loaded.version, 8);
  EXPECT_EQ(loaded.replayed, 2) << "the latest snapshot and the one event after it, not all 9";
  EXPECT_EQ(loaded.snaps, 1);
  EXPECT_EQ(loaded.patches, 1);

  // Without snapshots the same history replays in full.
  const auto plain = counter_state();
  auto replaying = app(pool_).with(plain).build();
  EXPECT_EQ(replaying.load(plain, s, AsOf{}).replayed, 7) << "time travel skips snapshots";
}

TEST_F(AppLoadTest, SnapshotsByPredicate) {
  CounterOptions options;
  options.snap = [](const Counter& c, const SnapStats&) { return c.count >= 10; };
  const auto counter = counter_state(options);
  auto snapping = app(pool_).with(counter).build();
  const std::string s = stream();
  EXPECT_FALSE(snapping.do_action("increment", {s, kAnn, {}}, Increment{4}).snapshotted);
  const auto big = snapping.do_action("increment", {s, kAnn, {}}, Increment{6});
  EXPECT_TRUE(big.snapshotted);
  EXPECT_EQ(big.version, 2) << "the snapshot took the next version";
  snapping.clear_cache();
  const auto loaded = snapping.load(counter, s);
  EXPECT_EQ(loaded.state.count, 10);
  EXPECT_EQ(loaded.replayed, 1);
  ASSERT_TRUE(loaded.event);
  EXPECT_EQ(loaded.event->name, kSnapshotEvent);
  EXPECT_EQ(loaded.event->meta.at("causation").at("event").at("name"), "Incremented");
}

TEST_F(AppLoadTest, ACachedSnapshotPositionGuardsTheNextCommit) {
  const auto counter = counter_state({.snap_every = 1});
  auto snapping = app(pool_).with(counter).build();
  const std::string s = stream();
  snapping.do_action("increment", {s, kAnn, {}}, Increment{1});  // v0, snapshot v1
  const auto second = snapping.do_action("increment", {s, kAnn, {}}, Increment{1});
  EXPECT_EQ(second.events.front().version, 2) << "the cache knew about the snapshot's version";
  EXPECT_EQ(snapping.stats().conflicts, 0u);
}

TEST_F(AppLoadTest, TimeTravelByEventId) {
  const auto counter = counter_state();
  auto travelling = app(pool_).with(counter).build();
  const std::string s = stream();
  std::vector<std::int64_t> ids;
  for (int by = 1; by <= 4; ++by) ids.push_back(travelling.do_action("increment", {s, kAnn, {}}, Increment{by}).id);

  const auto sent = statements(*pool_);
  const auto past = travelling.load(counter, s, AsOf{ids[2], {}});
  EXPECT_GT(statements(*pool_), sent) << "time travel never answers from the cache";
  EXPECT_FALSE(past.cache_hit);
  EXPECT_EQ(past.state.count, 1 + 2) << "events before id " << ids[2];
  EXPECT_EQ(past.version, 1);
  EXPECT_EQ(past.id, ids[1]);

  EXPECT_EQ(travelling.load(counter, s).state.count, 10) << "the cache still holds the present";
  EXPECT_TRUE(travelling.load(counter, s).cache_hit);
}

TEST_F(AppLoadTest, TimeTravelByTimestamp) {
  const auto counter = counter_state();
  auto travelling = app(pool_).with(counter).build();
  const std::string s = stream();
  std::vector<Timestamp> times;
  for (int by = 1; by <= 3; ++by) {
    times.push_back(travelling.do_action("increment", {s, kAnn, {}}, Increment{by}).events.front().created);
    std::this_thread::sleep_for(2ms);  // distinct transaction times
  }
  const auto at_second = travelling.load(counter, s, AsOf{{}, times[1]});
  EXPECT_EQ(at_second.state.count, 1);
  EXPECT_EQ(at_second.version, 0);
  const auto after_all = travelling.load(counter, s, AsOf{{}, times[2] + 1us});
  EXPECT_EQ(after_all.state.count, 6);
  EXPECT_EQ(after_all.replayed, 3);
  EXPECT_EQ(travelling.load(counter, s, AsOf{{}, times[0]}).version, -1) << "before the first event: nothing";
}

}  // namespace
}  // namespace act::test
