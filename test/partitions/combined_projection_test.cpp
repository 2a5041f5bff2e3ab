// A read model over every partition (AppBuilder::with(projection, read_model)): its position is
// a vector, one last id per partition, kept in the read model's database
// by the transaction of its writes. Each event is applied exactly once, in
// order per stream and per partition, by settle, by started workers, by
// two apps at once; a failing handler holds its partition alone; rebuild
// replays it all; bad input is refused and changes nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/counter.hpp"
#include "support/partitions.hpp"
#include "support/tallies.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

constexpr int kStreams = 24;
constexpr int kEventsEach = 3;

class CombinedProjectionTest : public PartitionsTest {
 protected:
  void SetUp() override {
    PartitionsTest::SetUp();
    // Names whose streams fall in every partition, so each test reads them all.
    do {
      prefix_ = unique("cpp-combined");
    } while (!spans_every_partition(prefix_));
    table_ = "tally_" + std::to_string(::getpid()) + "_" + std::to_string(++tables_);
  }

  TallyOptions tally_options() const { return TallyOptions{table_, prefix_, partitions()}; }

  // The counter app over every partition with read_model's tally over all of them.
  App counter_app_with(const Projection& tally) const { return counter_app(map()).with(tally, read_model()).build(); }

  // rounds increments on each of the streams prefix-first .. prefix-(end - 1), one stream after another.
  bool spans_every_partition(const std::string& prefix) const {
    std::set<std::int32_t> seen;
    for (int s = 0; s < kStreams; ++s) seen.insert(partition_of(prefix + "-" + std::to_string(s), partitions()));
    return static_cast<std::int32_t>(seen.size()) == partitions();
  }

  void commit(App& app, int rounds = kEventsEach, int first = 0, int end = kStreams) {
    for (int round = 0; round < rounds; ++round)
      for (int s = first; s < end; ++s)
        app.do_action("increment", {prefix_ + "-" + std::to_string(s), kBot, {}}, Increment{1});
  }

  std::vector<std::int64_t> horizons() const {
    std::vector<std::int64_t> horizons;
    for (std::int32_t p = 0; p < partitions(); ++p) horizons.push_back(std::stoll(sql(p, "SELECT act.horizon()")[0]));
    return horizons;
  }

  // "0 0 0 0" until its setup has made the table.
  std::string tally_summary() const {
    if (read_model_sql("SELECT to_regclass('" + table_ + "') IS NULL")[0] == "t") return "0 0 0 0";
    return read_model_sql(tally_summary_sql(table_, true))[0];
  }
  std::string all_once_in_order(int events) const {
    return std::to_string(events) + " " + std::to_string(events) + " 0 0";
  }

  std::string prefix_;
  std::string table_;
  static inline std::atomic<int> tables_{0};
};

TEST_F(CombinedProjectionTest, SettleAppliesEveryPartitionOnceAndStoresTheVectorOfPositions) {
  const Projection tallied = tally(tally_options());
  App app = counter_app_with(tallied);
  commit(app);
  const SettleResult settled = app.settle();
  EXPECT_EQ(settled.drained.failed, 0);
  EXPECT_EQ(tally_summary(), all_once_in_order(kStreams * kEventsEach));
  // Each partition's position is its horizon: nothing of it is left to read.
  EXPECT_EQ(app.positions(tallied), horizons());
  std::int32_t partitions_with_events = 0;
  for (std::int32_t p = 0; p < partitions(); ++p)
    partitions_with_events += read_model_sql("SELECT count(*) FROM " + table_ + " WHERE partition = " +
                                             std::to_string(p))[0] != "0";
  EXPECT_EQ(partitions_with_events, partitions()) << "every partition's events applied";

  // Again: nothing new, nothing applied twice.
  app.settle();
  EXPECT_EQ(tally_summary(), all_once_in_order(kStreams * kEventsEach));
}

TEST_F(CombinedProjectionTest, StartedWorkersFollowNewCommits) {
  const Projection tallied = tally(tally_options());
  App app = counter_app_with(tallied);
  app.start();
  commit(app);
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (tally_summary() != all_once_in_order(kStreams * kEventsEach) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(20ms);
  EXPECT_EQ(tally_summary(), all_once_in_order(kStreams * kEventsEach));
  app.shutdown();
  EXPECT_EQ(app.positions(tallied), horizons());
}

TEST_F(CombinedProjectionTest, TwoAppsApplyingTheSameProjectionShareThePartitionsExactlyOnce) {
  TallyOptions options = tally_options();
  options.per_event = 500us;  // long enough for the two to meet on a partition
  const Projection tallied = tally(options);
  App first = counter_app_with(tallied);
  App second = counter_app_with(tallied);
  first.start();
  second.start();
  // Each commits half the streams (one stream's actions race otherwise).
  std::thread committer([&] { commit(first, 2, 0, kStreams / 2); });
  commit(second, 2, kStreams / 2, kStreams);
  committer.join();
  const int events = kStreams * 2;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (tally_summary() != all_once_in_order(events) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(20ms);
  first.shutdown();
  second.shutdown();
  EXPECT_EQ(tally_summary(), all_once_in_order(events));
}

TEST_F(CombinedProjectionTest, AFailingHandlerHoldsItsPartitionAtTheEventAndTheOthersGoOn) {
  const std::string poisoned = stream_in(1, prefix_);
  std::atomic<bool> failing{true};
  const std::string table = table_;
  const std::int32_t count = partitions();
  const Projection tallied =
      act::projection(table)
          .source("^" + prefix_ + "-")
          .setup([table](Sql& sql) {
            sql.exec("CREATE TABLE " + table + " (seq bigserial PRIMARY KEY, partition int NOT NULL, "
                     "stream text NOT NULL, version int NOT NULL, id bigint NOT NULL)");
          })
          .on<Incremented>("Incremented",
                           [&failing, poisoned, table, count](const Incremented&, const Committed& event, Sql& sql) {
                             if (failing && event.stream == poisoned && event.version == 1)
                               throw std::runtime_error("poisoned event");
                             sql.exec("INSERT INTO " + table +
                                          " (partition, stream, version, id) VALUES ($1, $2, $3, $4)",
                                      {partition_of(event.stream, count), event.stream, event.version, event.id});
                           })
          .build();
  App app = counter_app_with(tallied);
  commit(app, 1);
  for (int round = 0; round < 2; ++round) app.do_action("increment", {poisoned, kBot, {}}, Increment{1});
  commit(app, 1);

  const DrainResult drained = app.drain();
  ASSERT_EQ(drained.failed, 1);
  const ReactionFailure& failure = drained.failures.front();
  EXPECT_EQ(failure.reaction, table);
  EXPECT_EQ(failure.stream, poisoned);
  EXPECT_EQ(failure.event_name, "Incremented");
  EXPECT_EQ(failure.error, "poisoned event");
  ASSERT_TRUE(failure.event_id.has_value());

  // Partition 1 stops just before the poisoned event; the others are done.
  const std::vector<std::int64_t> positions = app.positions(tallied);
  const std::vector<std::int64_t> heads = horizons();
  for (std::int32_t p = 0; p < partitions(); ++p) {
    if (p == 1) {
      EXPECT_EQ(std::to_string(positions[1]),
                sql(1, "SELECT id FROM act.query('" + poisoned + "') WHERE version = 0")[0])
          << "the events before the failing one are kept: the poisoned stream's first";
    } else {
      EXPECT_EQ(positions[static_cast<std::size_t>(p)], heads[static_cast<std::size_t>(p)]) << "partition " << p;
    }
  }
  EXPECT_EQ(read_model_sql("SELECT concat_ws(' ', attempts, failed_id, error) FROM act_partition_positions "
                           "WHERE projection = '" + table + "' AND partition = 1")[0],
            "1 " + std::to_string(*failure.event_id) + " poisoned event");
  EXPECT_EQ(read_model_sql("SELECT count(*) FROM " + table + " WHERE stream = '" + poisoned + "'")[0], "1");

  // Fixed: it goes on from the event it stopped at, nothing twice.
  failing = false;
  const SettleResult settled = app.settle();
  EXPECT_EQ(settled.drained.failed, 0);
  EXPECT_EQ(tally_summary(), all_once_in_order(kStreams * 2 + 2));
  EXPECT_EQ(app.positions(tallied), horizons());
  EXPECT_EQ(read_model_sql("SELECT count(*) FROM act_partition_positions WHERE projection = '" + table +
                           "' AND (error IS NOT NULL OR attempts > 0)")[0],
            "0");
}

TEST_F(CombinedProjectionTest, RebuildEmptiesTheReadModelAndReplaysEveryPartition) {
  const Projection tallied = tally(tally_options());
  App app = counter_app_with(tallied);
  commit(app);
  app.settle();
  read_model_sql("UPDATE " + table_ + " SET version = version + 100 RETURNING 1");  // a read model gone wrong

  std::int64_t reported = -1;
  const RebuildProgress rebuilt = app.rebuild(tallied, [&](const RebuildProgress& progress) {
    EXPECT_GE(progress.applied, reported) << "progress only grows";
    reported = progress.applied;
  });
  EXPECT_EQ(rebuilt.applied, kStreams * kEventsEach);
  EXPECT_FALSE(rebuilt.blocked);
  EXPECT_EQ(tally_summary(), all_once_in_order(kStreams * kEventsEach));
  EXPECT_EQ(app.positions(tallied), horizons());
}

TEST_F(CombinedProjectionTest, APageSendsItsPositionWithTheHandlersStatements) {
  const Projection tallied = tally(tally_options());
  const std::shared_ptr<ConnectionPool> pool = read_model();
  App app = counter_app(map()).with(tallied, pool).build();
  commit(app);
  app.settle();  // sets the read model up
  const std::uint64_t before = pool->stats().round_trips;
  EXPECT_EQ(app.rebuild(tallied).applied, kStreams * kEventsEach);
  // The rewind: BEGIN, the positions locked, TRUNCATE, the positions reset,
  // COMMIT. Then one page a partition: BEGIN, its position locked, the
  // handlers' statements with the position's write, COMMIT.
  EXPECT_EQ(pool->stats().round_trips - before, 5u + 4u * static_cast<std::uint64_t>(partitions()));
  EXPECT_EQ(tally_summary(), all_once_in_order(kStreams * kEventsEach));
  EXPECT_EQ(app.positions(tallied), horizons());
}

TEST_F(CombinedProjectionTest, BadInputIsRefusedAndChangesNothing) {
  const Projection tallied = tally(tally_options());
  App app = counter_app_with(tallied);
  EXPECT_THROW(counter_app(map()).with(tallied, read_model()).with(tallied, read_model()).build(),
               std::invalid_argument)
      << "the same target twice";
  EXPECT_THROW(counter_app(map()).with(tallied).with(tallied, read_model()).build(), std::invalid_argument)
      << "the same target as one of each partition";
  EXPECT_THROW(counter_app(map()).with(tally({table_ + "_other", prefix_, partitions()}), nullptr),
               std::invalid_argument)
      << "no read model";
  const Projection in_line = act::projection(table_ + "_inline")
                                 .on<Incremented>("Incremented", [](const Incremented&, const Committed&, Sql&) {})
                                 .run_inline()
                                 .build();
  EXPECT_THROW(counter_app(map()).with(in_line, read_model()).build(), std::invalid_argument) << "an inline projection";
  TallyOptions undeclared = tally_options();
  undeclared.table = table_ + "_lane";
  undeclared.lane = "no-such-lane";
  EXPECT_THROW(counter_app(map()).with(tally(undeclared), read_model()).build(), std::invalid_argument)
      << "a lane the app does not declare";
  EXPECT_THROW(app.positions(tally({table_ + "_never", prefix_, partitions()})), std::invalid_argument)
      << "a projection not added";

  // Positions made for another number of partitions: refused, not reused.
  const std::string other = table_ + "_eight";
  app.positions(tallied);  // creates act_partition_positions
  read_model_sql("INSERT INTO act_partition_positions (projection, partition, partitions, position) "
                 "SELECT '" + other + "', p, 8, 5 FROM generate_series(0, 7) AS p RETURNING 1");
  App refused = counter_app_with(tally({other, prefix_, partitions()}));
  try {
    refused.settle();
    ADD_FAILURE() << "settle applied a projection whose positions are for 8 partitions";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("are for 8 partitions, the map has " + std::to_string(partitions())),
              std::string::npos)
        << error.what();
  }
  EXPECT_EQ(read_model_sql("SELECT string_agg(DISTINCT position::text, ',') FROM act_partition_positions "
                           "WHERE projection = '" + other + "'")[0],
            "5");
  EXPECT_EQ(read_model_sql("SELECT count(*) FROM pg_tables WHERE tablename = '" + other + "'")[0], "0")
      << "its setup did not run";
}

TEST_F(CombinedProjectionTest, ALiteralSourceIsReadInItsStreamsPartitionAlone) {
  const std::string only = stream_in(2, prefix_);
  const Projection tallied = act::projection(table_)
                                 .source(only)
                                 .setup([this](Sql& sql) {
                                   sql.exec("CREATE TABLE " + table_ + " (seq bigserial PRIMARY KEY, partition int, "
                                            "stream text, version int, id bigint)");
                                 })
                                 .on<Incremented>("Incremented",
                                                  [this](const Incremented&, const Committed& event, Sql& sql) {
                                                    sql.exec("INSERT INTO " + table_ + " (partition, stream, version, id)"
                                                             " VALUES (2, $1, $2, $3)",
                                                             {event.stream, event.version, event.id});
                                                  })
                                 .build();
  App app = counter_app_with(tallied);
  commit(app, 1);
  for (int round = 0; round < 3; ++round) app.do_action("increment", {only, kBot, {}}, Increment{1});
  const SettleResult settled = app.settle();
  EXPECT_EQ(settled.drained.failed, 0) << (settled.failures().empty() ? "" : to_string(settled.failures().front()));
  EXPECT_EQ(read_model_sql("SELECT string_agg(stream || ':' || version, ' ' ORDER BY seq) FROM " + table_)[0],
            only + ":0 " + only + ":1 " + only + ":2");
  const std::vector<std::int64_t> positions = app.positions(tallied);
  EXPECT_EQ(positions[2], horizons()[2]);
  for (std::int32_t p : {0, 1, 3}) EXPECT_EQ(positions[static_cast<std::size_t>(p)], 0) << "partition " << p;
}

TEST_F(CombinedProjectionTest, CloseLeavesAStreamTheReadModelHasNotAppliedYet) {
  const std::string held = stream_in(3, prefix_);
  std::atomic<bool> failing{true};
  const std::string table = table_;
  const Projection tallied =
      act::projection(table)
          .source("^" + prefix_ + "-")
          .setup([table](Sql& sql) { sql.exec("CREATE TABLE " + table + " (stream text, version int)"); })
          .on<Incremented>("Incremented", [&failing, held, table](const Incremented&, const Committed& event, Sql& sql) {
            if (failing && event.stream == held && event.version == 1) throw std::runtime_error("not yet");
            sql.exec("INSERT INTO " + table + " VALUES ($1, $2)", {event.stream, event.version});
          })
          .build();
  App app = counter_app_with(tallied);
  for (int round = 0; round < 2; ++round) app.do_action("increment", {held, kBot, {}}, Increment{1});
  app.drain();

  CloseResult closed = app.close({CloseTarget{held}});
  EXPECT_EQ(closed.skipped, std::vector<std::string>{held});
  EXPECT_TRUE(closed.truncated.empty());
  EXPECT_EQ(sql(3, "SELECT count(*) FROM act.query('" + held + "')")[0], "2") << "nothing deleted";

  failing = false;
  closed = app.close({CloseTarget{held}});  // catches the read model up first
  EXPECT_TRUE(closed.skipped.empty());
  EXPECT_EQ(closed.truncated.size(), 1u);
  EXPECT_EQ(read_model_sql("SELECT string_agg(version::text, ',' ORDER BY version) FROM " + table)[0], "0,1");
}

TEST_F(CombinedProjectionTest, AStartedAppAssignedOverStopsItsWorkerFirst) {
  const Projection tallied = tally(tally_options());
  App app = counter_app_with(tallied);
  app.start();
  commit(app, 1);
  App replacement = counter_app_with(tallied);
  app = std::move(replacement);  // the started worker stops before its projections go
  commit(app, 1);
  app.settle();
  EXPECT_EQ(tally_summary(), all_once_in_order(kStreams * 2));
}

}  // namespace
}  // namespace act::test
