// With a node stopped (test/run-partitions.sh stops node B around this
// test alone and names its partitions in ACT_PARTITIONS_DOWN): actions for
// its streams fail with a PartitionError naming the partition, the other
// partitions go on, and the loops over partitions report the missing one.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "support/counter.hpp"
#include "support/partitions.hpp"
#include "support/tallies.hpp"

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
  App app = counter_app(map()).build();
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
  App app = counter_app(map(), lane)
                .on<Incremented>("Incremented")
                .to(Route{target, std::nullopt, 0, lane.name})
                .handle("count", [](const Incremented&, ReactionContext&) {})
                .build();
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

TEST_F(NodeDownTest, AReadModelOverAllPartitionsGoesOnWithTheOthersAndNamesTheStoppedOne) {
  const std::string table = "outage_" + std::to_string(::getpid());
  const std::string prefix = unique("cpp-outage-read");
  const Projection tallied = tally(TallyOptions{table, prefix, partitions()});
  App app = counter_app(map()).with(tallied, read_model()).build();
  int committed = 0;
  for (std::int32_t p = 0; p < partitions(); ++p) {
    if (stopped_.contains(p)) continue;
    app.do_action("increment", {stream_in(p, prefix), kBot, {}}, Increment{1});
    ++committed;
  }
  const SettleResult settled = app.settle();
  std::string reported;
  for (const ReactionFailure& failure : settled.failures()) reported += "\n  " + to_string(failure);
  // The apps have no reactions, so no work of theirs meets the stopped node: the read model's step does.
  ASSERT_EQ(settled.failures().size(), stopped_.size()) << "each stopped partition once" << reported;
  std::set<std::int32_t> named;
  for (const ReactionFailure& failure : settled.failures()) {
    EXPECT_EQ(failure.reaction, table);
    for (std::int32_t p : stopped_)
      if (failure.error.starts_with("projection " + table + ", partition " + std::to_string(p) + " of ")) named.insert(p);
  }
  EXPECT_EQ(named, stopped_);
  EXPECT_EQ(read_model_sql(tally_summary_sql(table, true))[0],
            std::to_string(committed) + " " + std::to_string(committed) + " 0 0")
      << "the partitions that are up are applied";
  const std::vector<std::int64_t> positions = app.positions(tallied);
  for (std::int32_t p = 0; p < partitions(); ++p) {
    if (stopped_.contains(p)) {
      EXPECT_EQ(positions[static_cast<std::size_t>(p)], 0) << "partition " << p;
    } else {
      EXPECT_EQ(positions[static_cast<std::size_t>(p)], std::stoll(sql(p, "SELECT act.horizon()")[0])) << "partition " << p;
    }
  }
}

}  // namespace
}  // namespace act::test
