// Recovery and closing over every partition: the admin selectors reach the
// rows of all partitions (counts summed), blocked streams are merged in
// stream order, each stream to close is closed in its own partition, and a
// projection of the partitions' own apps is rebuilt in each.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/counter.hpp"
#include "support/partitions.hpp"
#include "support/tallies.hpp"

namespace act::test {
namespace {

class RecoveryTest : public PartitionsTest {
 protected:
  void SetUp() override {
    PartitionsTest::SetUp();
    for (std::int32_t p = 0; p < partitions(); ++p) streams_.push_back(stream_in(p, prefix_));
    std::sort(streams_.begin(), streams_.end());
  }

  // A reaction per stream (its own target) that fails, and so blocks, while failing_ is set.
  App failing_apps() {
    const Lane lane{unique("cpp-recovery-lane")};
    const std::string prefix = prefix_;
    return counter_app(map(), lane)
        .on<Incremented>("Incremented")
        .to([prefix, lane](const Committed& event) -> std::optional<Route> {
          if (!event.stream.starts_with(prefix)) return std::nullopt;
          return Route{event.stream, event.stream, 0, lane.name};
        })
        .options(ReactionOptions{0, true, std::nullopt})
        .handle(unique("cpp-recovery-fails"),
                [this](const Incremented&, ReactionContext&) {
                  if (failing_) throw std::runtime_error("failing on purpose");
                })
        .build();
  }

  std::vector<std::string> blocked_of_mine(App& app) {
    std::vector<std::string> names;
    for (const Subscription& row : app.blocked_streams(prefix_, 1000))
      if (row.stream.starts_with(prefix_)) names.push_back(row.stream);
    return names;
  }

  const std::string prefix_ = unique("cpp-recovery");
  std::vector<std::string> streams_;  // one per partition, in name order
  std::atomic<bool> failing_{true};
};

TEST_F(RecoveryTest, SelectorsReachEveryPartitionAndBlockedStreamsMergeInStreamOrder) {
  App app = failing_apps();
  for (const std::string& stream : streams_) app.do_action("increment", {stream, kBot, {}}, Increment{1});
  const SettleResult settled = app.settle();
  EXPECT_EQ(settled.drained.blocked, partitions());
  EXPECT_EQ(blocked_of_mine(app), streams_) << "every partition's blocked stream, in stream order";
  const std::vector<Subscription> first_two = app.blocked_streams(prefix_, 2);
  ASSERT_EQ(first_two.size(), 2u);
  EXPECT_EQ(first_two[0].stream, streams_[0]);
  EXPECT_EQ(first_two[1].stream, streams_[1]);

  // A selector that names nothing touches nothing, in any partition.
  EXPECT_EQ(app.unblock(StreamFilter::named({})), 0);
  EXPECT_EQ(app.unblock(StreamFilter::named({prefix_ + "-no-such-stream"})), 0);
  EXPECT_EQ(blocked_of_mine(app), streams_);

  EXPECT_EQ(app.prioritize(StreamFilter::named(streams_), 7), partitions());
  for (const std::string& stream : streams_)
    EXPECT_EQ(sql(partition_of(stream, partitions()),
                  "SELECT priority FROM act.subscriptions WHERE stream = '" + stream + "'")[0],
              "7")
        << stream;

  failing_ = false;
  EXPECT_EQ(app.unblock(StreamFilter::named(streams_)), partitions());
  EXPECT_TRUE(blocked_of_mine(app).empty());
  EXPECT_EQ(app.settle().drained.failed, 0);
  EXPECT_EQ(app.reset(StreamFilter::named(streams_)), partitions());
  EXPECT_EQ(app.settle().drained.failed, 0) << "the reset streams are handled again";
}

TEST_F(RecoveryTest, EachStreamIsClosedInItsOwnPartition) {
  failing_ = false;
  App app = failing_apps();
  for (const std::string& stream : streams_) app.do_action("increment", {stream, kBot, {}}, Increment{1});
  app.settle();
  std::vector<CloseTarget> targets;
  for (const std::string& stream : streams_) targets.push_back(CloseTarget{stream});
  const CloseResult closed = app.close(targets);
  EXPECT_TRUE(closed.skipped.empty());
  EXPECT_EQ(closed.truncated.size(), streams_.size());
  for (const std::string& stream : streams_) {
    EXPECT_EQ(sql(partition_of(stream, partitions()),
                  "SELECT string_agg(name, ',') FROM act.query('" + stream + "', with_snaps => true)")[0],
              "__tombstone__")
        << stream;
  }
  EXPECT_THROW(app.do_action("increment", {streams_[0], kBot, {}}, Increment{1}), StreamClosedError);
}

TEST_F(RecoveryTest, AProjectionOfThePartitionsOwnAppsIsRebuiltInEach) {
  const std::string table = "rebuilt_" + std::to_string(::getpid());
  const Projection each = tally(TallyOptions{table, prefix_, partitions(), {}, table});
  App app = counter_app(map()).with(each).lane(tally_lane(table)).build();
  for (int round = 0; round < 2; ++round)
    for (const std::string& stream : streams_) app.do_action("increment", {stream, kBot, {}}, Increment{1});
  app.settle();
  for (std::int32_t p = 0; p < partitions(); ++p) sql(p, "DELETE FROM " + table + " RETURNING 1");

  const RebuildProgress rebuilt = app.rebuild(each);
  EXPECT_FALSE(rebuilt.blocked);
  EXPECT_EQ(rebuilt.applied, 2 * partitions());
  for (std::int32_t p = 0; p < partitions(); ++p)
    EXPECT_EQ(sql(p, tally_summary_sql(table, false))[0], "2 2 0") << "partition " << p;
}

}  // namespace
}  // namespace act::test
