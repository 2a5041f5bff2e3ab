// The App over a partition set, and over one database as a set of one:
// construction and routing, without a database (pools connect lazily,
// building an app sends nothing). Its behaviour on real partitions is
// test/partitions, run by test/run-partitions.sh.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "act/app.hpp"
#include "support/counter.hpp"

namespace act {
namespace {

PartitionMap four() {
  return PartitionMap(std::vector<std::string>{"dbname=act_p0", "dbname=act_p1", "dbname=act_p2", "dbname=act_p3"});
}

TEST(PartitionSet, AnAppHasAStoreOnEachPartitionsPool) {
  const State<test::Counter> counter = test::counter_state();
  App app = act::app(four()).with(counter).build();
  EXPECT_EQ(app.partitions(), 4);
  StoreSet& stores = app.stores();
  for (std::int32_t p = 0; p < 4; ++p) EXPECT_EQ(&stores.store(p).pool(), stores.map().pool(p).get());
  EXPECT_EQ(app.partition_of("ticket-1"), 3);
  EXPECT_EQ(&stores.store_for("ticket-1"), &stores.store(3));
  EXPECT_THROW(stores.store(4), std::out_of_range);
  EXPECT_THROW(stores.store(-1), std::out_of_range);
  EXPECT_EQ(stores.map().pool(0)->stats().opened, 0u) << "nothing connected";
}

TEST(PartitionSet, WhatNeedsOneDatabaseIsRefusedOnSeveral) {
  const State<test::Counter> counter = test::counter_state();
  App app = act::app(four()).with(counter).build();
  EXPECT_THROW(app.store(), std::logic_error);
  EXPECT_THROW(app.pool(), std::logic_error);
  EXPECT_THROW(app.transact([](Sql&) {}), std::logic_error);
  EXPECT_THROW(app.query(Query{}, [](const Committed&) {}), std::logic_error) << "every stream: no one partition";
  Query pattern;
  pattern.stream = "^ticket-";
  pattern.stream_exact = false;
  EXPECT_THROW(app.query(pattern, [](const Committed&) {}), std::logic_error) << "a pattern spans partitions";
}

TEST(PartitionSet, OneDatabaseIsASetOfOne) {
  const State<test::Counter> counter = test::counter_state();
  const auto pool = std::make_shared<ConnectionPool>("dbname=act_single");
  App app = act::app(pool).with(counter).build();
  EXPECT_EQ(app.partitions(), 1);
  EXPECT_EQ(app.partition_of("ticket-1"), 0);
  EXPECT_EQ(&app.pool(), pool.get());
  EXPECT_EQ(&app.store().pool(), pool.get());
  EXPECT_EQ(&app.stores().store(0).pool(), pool.get());
}

TEST(PartitionSet, AReadModelOverAllPartitionsIsCheckedAtBuild) {
  const State<test::Counter> counter = test::counter_state();
  const auto read_model = std::make_shared<ConnectionPool>("dbname=act_read_model");
  const Projection totals = act::projection("totals")
                                .on<nlohmann::json>("Incremented", [](const nlohmann::json&, const Committed&, Sql&) {})
                                .build();
  const Projection in_line =
      act::projection("inline_totals")
          .on<nlohmann::json>("Incremented", [](const nlohmann::json&, const Committed&, Sql&) {})
          .run_inline()
          .build();
  App app = act::app(four()).with(counter).with(totals, read_model).build();
  EXPECT_THROW(app.positions(in_line), std::invalid_argument) << "not a read model over all partitions";
  EXPECT_THROW(act::app(four()).with(counter).with(in_line, read_model).build(), std::invalid_argument);
  EXPECT_THROW(act::app(four()).with(counter).with(totals, read_model).with(totals, read_model).build(),
               std::invalid_argument);
  EXPECT_THROW(act::app(four()).with(counter).with(totals, nullptr), std::invalid_argument);
  EXPECT_EQ(read_model->stats().opened, 0u) << "nothing connected";
}

TEST(PartitionError, NamesThePartitionAndKeepsTheCause) {
  const PartitionError error(2, 4, StoreError("connect", "08006", "connection refused"));
  EXPECT_STREQ(error.what(), "partition 2 of 4: connection refused");
  EXPECT_EQ(error.partition(), 2);
  EXPECT_EQ(error.partitions(), 4);
  EXPECT_EQ(error.operation(), "connect");
  EXPECT_EQ(error.sqlstate(), "08006");
}

TEST(PartitionError, OnlyAPartitionSetNamesThePartition) {
  const auto fail = [] { throw StoreError("commit", "08006", "connection refused"); };
  EXPECT_THROW(in_partition(0, 1, fail), StoreError);
  try {
    in_partition(0, 1, fail);
  } catch (const PartitionError&) {
    ADD_FAILURE() << "a single database's error passes as it is";
  } catch (const StoreError&) {
  }
  EXPECT_THROW(in_partition(1, 2, fail), PartitionError);
  std::vector<std::int32_t> ran;
  EXPECT_THROW(on_every_partition(4,
                                  [&](std::int32_t p) {
                                    ran.push_back(p);
                                    if (p == 1 || p == 2) fail();
                                  }),
               PartitionError);
  EXPECT_EQ(ran, (std::vector<std::int32_t>{0, 1, 2, 3})) << "the others run before the first failure is thrown";
}

}  // namespace
}  // namespace act
