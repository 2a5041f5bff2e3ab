// With a node stopped (test/run-partitions.sh stops node B around this
// test alone and names its partitions in ACT_PARTITIONS_DOWN): actions for
// its streams fail with a PartitionError naming the partition, the other
// partitions go on, and the loops over partitions report the missing one.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "support/counter.hpp"
#include "support/partitions.hpp"

namespace act::test {
namespace {

class NodeDownTest : public PartitionsTest {
 protected:
  void SetUp() override {
    PartitionsTest::SetUp();
    stopped_ = down();
    ASSERT_FALSE(stopped_.empty()) << "ACT_PARTITIONS_DOWN names no stopped partition";
    ASSERT_LT(stopped_.size(), static_cast<std::size_t>(partitions())) << "some partition must be up";
  }

  static std::string prefix_of(std::int32_t partition, std::int32_t partitions) {
    return "partition " + std::to_string(partition) + " of " + std::to_string(partitions) + ": ";
  }

  std::set<std::int32_t> stopped_;
};

TEST_F(NodeDownTest, ActionsForItsStreamsFailNamingThePartitionAndTheOthersSucceed) {
  // Built while the node is down: pools connect when first used.
  PartitionedApp app(map(), [this](std::shared_ptr<ConnectionPool> pool) { return counter_app(std::move(pool)); });
  const std::string prefix = unique("cpp-outage");
  std::set<std::int32_t> failed;
  std::set<std::int32_t> committed;
  for (int i = 0; i < 40; ++i) {
    const std::string stream = prefix + "-" + std::to_string(i);
    const std::int32_t partition = partition_of(stream, partitions());
    try {
      app.do_action("increment", {stream, kBot, {}}, Increment{1});
      committed.insert(partition);
    } catch (const PartitionError& error) {
      failed.insert(partition);
      EXPECT_EQ(error.partition(), partition);
      EXPECT_EQ(error.partitions(), partitions());
      EXPECT_TRUE(std::string(error.what()).starts_with(prefix_of(partition, partitions()))) << error.what();
      EXPECT_TRUE(stopped_.contains(partition)) << stream << " failed on a partition that is up: " << error.what();
    }
  }
  EXPECT_EQ(failed, stopped_) << "every stopped partition fails";
  for (std::int32_t p = 0; p < partitions(); ++p) {
    EXPECT_EQ(committed.contains(p), !stopped_.contains(p)) << "partition " << p;
  }
  const std::int32_t down_one = *stopped_.begin();
  const std::string down_stream = stream_in(down_one, "cpp-outage");
  EXPECT_THROW(app.load(counter_, down_stream), PartitionError);
}

TEST_F(NodeDownTest, TheLoopsOverPartitionsReportTheStoppedOneAndRunTheOthers) {
  const std::string target = unique("cpp-outage-all");
  const Lane lane{unique("cpp-outage")};
  PartitionedApp app(map(), [&](std::shared_ptr<ConnectionPool> pool) {
    return counter_app(std::move(pool), lane)
        .on<Incremented>("Incremented")
        .to(Route{target, std::nullopt, 0, lane.name})
        .handle("count", [](const Incremented&, ReactionContext&) {});
  });
  const SettleResult settled = app.settle();
  ASSERT_EQ(settled.failures().size(), stopped_.size()) << "one failure per stopped partition, once";
  for (const ReactionFailure& failure : settled.failures()) {
    EXPECT_EQ(failure.target, "") << "a refused cycle, not a handler";
    bool names_one = false;
    for (std::int32_t p : stopped_) names_one = names_one || failure.error.starts_with(prefix_of(p, partitions()));
    EXPECT_TRUE(names_one) << failure.error;
  }
  try {
    app.start();
    ADD_FAILURE() << "start() reports the stopped partition";
  } catch (const PartitionError& error) {
    EXPECT_TRUE(stopped_.contains(error.partition())) << error.what();
  }
  app.shutdown();
  for (std::int32_t p = 0; p < partitions(); ++p) {
    if (stopped_.contains(p)) continue;
    EXPECT_EQ(sql(p, "SELECT count(*) FROM act.query_streams('{\"stream\": \"" + target + "\"}')"),
              std::vector<std::string>{"1"})
        << "partition " << p << " subscribed its row all the same";
  }
}

}  // namespace
}  // namespace act::test
