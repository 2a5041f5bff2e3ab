// PartitionedApp's construction and routing table, without a database
// (pools connect lazily, building an app sends nothing). Its behaviour on
// real partitions is test/partitions, run by test/run-partitions.sh.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "act/partitioned_app.hpp"
#include "support/counter.hpp"

namespace act {
namespace {

PartitionMap four() {
  return PartitionMap(std::vector<std::string>{"dbname=act_p0", "dbname=act_p1", "dbname=act_p2", "dbname=act_p3"});
}

TEST(PartitionedApp, BuildsOneAppPerPartitionOnItsPool) {
  const State<test::Counter> counter = test::counter_state();
  std::vector<std::int32_t> built_for;
  PartitionedApp app(four(), [&](std::shared_ptr<ConnectionPool> pool, std::int32_t partition) {
    built_for.push_back(partition);
    return act::app(std::move(pool)).with(counter);
  });
  EXPECT_EQ(built_for, (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(app.partitions(), 4);
  for (std::int32_t p = 0; p < 4; ++p) EXPECT_EQ(&app.app(p).pool(), app.map().pool(p).get());
  EXPECT_EQ(app.partition_of("ticket-1"), 3);
  EXPECT_EQ(&app.app_for("ticket-1"), &app.app(3));
  EXPECT_THROW(app.app(4), std::out_of_range);
  EXPECT_EQ(app.map().pool(0)->stats().opened, 0u) << "nothing connected";
}

TEST(PartitionedApp, RefusesAnAppBuiltOnAnotherPool) {
  const State<test::Counter> counter = test::counter_state();
  const auto elsewhere = std::make_shared<ConnectionPool>("dbname=elsewhere");
  EXPECT_THROW(
      PartitionedApp(four(), [&](std::shared_ptr<ConnectionPool>) { return act::app(elsewhere).with(counter); }),
      std::invalid_argument);
  EXPECT_THROW(PartitionedApp(four(), PartitionedApp::Factory()), std::invalid_argument);
}

TEST(PartitionError, NamesThePartitionAndKeepsTheCause) {
  const PartitionError error(2, 4, StoreError("connect", "08006", "connection refused"));
  EXPECT_STREQ(error.what(), "partition 2 of 4: connection refused");
  EXPECT_EQ(error.partition(), 2);
  EXPECT_EQ(error.partitions(), 4);
  EXPECT_EQ(error.operation(), "connect");
  EXPECT_EQ(error.sqlstate(), "08006");
}

}  // namespace
}  // namespace act
