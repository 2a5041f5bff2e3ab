// Two applications on one database: a worker on SQL calls (the layout of
// docs/workers.md, as a Python or Go worker would run it) and a C++ app.
// Each handles only its own work: the C++ app never claims a lane it has
// no route in, and a target of another app met in a lane it shares is
// handed back untouched, never acknowledged past events nothing of its own
// applied. Each read model ends exactly right.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "support/counter_app.hpp"
#include "support/log_capture.hpp"
#include "support/recorder.hpp"
#include "support/totals.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class TwoAppsTest : public DatabaseTest {
 protected:
  void SetUp() override {
    DatabaseTest::SetUp();
    prefix_ = stream("acct");
    sql_target_ = stream("balances");
    sql_table_ = "sql_balances_" + std::to_string(++suffix_);
    cpp_table_ = "cpp_totals_" + std::to_string(suffix_);
    sql("CREATE TABLE " + sql_table_ + " (account text PRIMARY KEY, balance int NOT NULL, events int NOT NULL)");
    // The SQL app's handler and worker: claim committed first, writes and ack in one transaction.
    sql("CREATE OR REPLACE PROCEDURE sql_worker(worker text, worker_lane text, target_table text) LANGUAGE plpgsql AS $$\n"
        "DECLARE claimed record; acked int;\n"
        "BEGIN\n"
        "  LOOP\n"
        "    SELECT c.stream, c.at, c.events INTO claimed\n"
        "      FROM act.claim_events(1, 0, worker, 30000, lane => worker_lane) c;\n"
        "    EXIT WHEN NOT FOUND;\n"
        "    COMMIT;\n"
        "    EXECUTE format('INSERT INTO %I AS t SELECT e ->> ''stream'', sum((e -> ''data'' ->> ''by'')::int), count(*) "
        "FROM jsonb_array_elements($1) e GROUP BY 1 ON CONFLICT (account) DO UPDATE SET balance = t.balance + "
        "excluded.balance, events = t.events + excluded.events', target_table) USING claimed.events;\n"
        "    SELECT count(*) INTO acked FROM act.ack(jsonb_build_array(jsonb_build_object('stream', claimed.stream, "
        "'by', worker, 'at', coalesce((claimed.events -> -1 ->> 'id')::bigint, claimed.at))));\n"
        "    IF acked = 0 THEN RAISE EXCEPTION 'the lease on % was lost', claimed.stream; END IF;\n"
        "    COMMIT;\n"
        "  END LOOP;\n"
        "END $$");
    sql("SELECT act.subscribe(jsonb_build_array(jsonb_build_object('stream', '" + sql_target_ + "', 'source', '^" +
        prefix_ + "-', 'names', jsonb_build_array('Incremented'))))");
  }

  std::string sql(const std::string& statement) { return database().sql(statement); }
  void run_sql_worker() { sql("CALL sql_worker('sql-worker', 'default', '" + sql_table_ + "')"); }
  std::string sql_balance(const std::string& account) {
    return sql("SELECT balance || '/' || events FROM " + sql_table_ + " WHERE account = '" + account + "'");
  }
  std::string cpp_total(const std::string& account) {
    return sql("SELECT total || '/' || events FROM " + cpp_table_ + " WHERE stream = '" + account + "'");
  }

  // Deposits 1..count into each account; returns the last event's id.
  std::int64_t deposit(App& app, const std::vector<std::string>& accounts, int count) {
    std::int64_t last = -1;
    for (int by = 1; by <= count; ++by) {
      for (const std::string& account : accounts)
        last = app.do_action("increment", {account, kAnn, {}}, Increment{by}).id;
    }
    return last;
  }

  ProjectionBuilder cpp_projection(const std::string& lane) {
    return totals::counting(
        totals::kept_in(act::projection(cpp_table_).source("^" + prefix_ + "-").lane(lane), cpp_table_), cpp_table_);
  }

  std::string account(const std::string& name) const { return prefix_ + "-" + name; }

  State<Counter> counter_ = counter_state();
  Recorder recorder_;
  std::string prefix_;
  std::string sql_target_;
  std::string sql_table_;
  std::string cpp_table_;
  static inline int suffix_ = 0;
};

// The C++ app routes everything to its own lane: it never claims the
// default lane, where the SQL app's row is.
TEST_F(TwoAppsTest, AnAppNeverClaimsALaneItHasNoRouteIn) {
  const std::string audit = stream("audit");
  auto app =
      act::app(pool_)
          .with(counter_)
          .lane(Lane{"cpp"})
          .with(cpp_projection("cpp").build())
          .on<Incremented>("Incremented")
          .to(Route{audit, "^" + prefix_ + "-", 0, "cpp"})
          .handle("audit", [&](const Incremented&,
                               ReactionContext& context) { recorder_.record(context.target(), context.event()); })
          .build();
  app.drain();
  const std::int64_t last = deposit(app, {account("a"), account("b")}, 3);

  app.settle();  // first, so it would meet the SQL app's row if it claimed the default lane
  const Subscription untouched = subscription(sql_target_);
  EXPECT_EQ(untouched.at, -1) << "no watermark moved past events the C++ app never applied";
  EXPECT_EQ(untouched.retry, -1) << "never claimed";
  run_sql_worker();

  EXPECT_EQ(sql_balance(account("a")), "6/3");
  EXPECT_EQ(sql_balance(account("b")), "6/3");
  EXPECT_EQ(subscription(sql_target_).at, last);
  EXPECT_EQ(cpp_total(account("a")), "6/3");
  EXPECT_EQ(cpp_total(account("b")), "6/3");
  EXPECT_EQ(recorder_.ids(audit).size(), 6u);
}

// Both apps in the default lane: the C++ app claims the SQL app's row but
// hands it back as it found it (watermark, retry and no lease).
TEST_F(TwoAppsTest, AnotherAppsTargetInASharedLaneIsHandedBackUntouched) {
  const std::string audit = stream("audit");
  const auto log = std::make_shared<LogCapture>();
  auto app =
      act::app(pool_)
          .with(counter_)
          .with(cpp_projection(std::string(kDefaultLane)).build())
          .logger(log)
          .on<Incremented>("Incremented")
          .to(Route{audit, "^" + prefix_ + "-"})
          .handle("audit", [&](const Incremented&,
                               ReactionContext& context) { recorder_.record(context.target(), context.event()); })
          .build();
  app.drain();
  const std::int64_t last = deposit(app, {account("a")}, 4);

  const DrainResult drained = app.drain();
  EXPECT_EQ(drained.leased, 3) << "the shared lane's three rows, the SQL app's among them";
  const Subscription handed_back = subscription(sql_target_);
  EXPECT_EQ(handed_back.at, -1);
  EXPECT_EQ(handed_back.retry, -1) << "the claim's count undone";
  EXPECT_FALSE(handed_back.leased_by.has_value()) << "claimable at once by its own app";
  const std::optional<LogLine> left = log->find("no route of this app leads to");
  ASSERT_TRUE(left.has_value()) << "said, with the target";
  EXPECT_EQ(left->field("target"), sql_target_);

  app.settle();
  run_sql_worker();
  EXPECT_EQ(sql_balance(account("a")), "10/4");
  EXPECT_EQ(subscription(sql_target_).at, last);
  EXPECT_EQ(cpp_total(account("a")), "10/4");
  EXPECT_EQ(recorder_.ids(audit).size(), 4u);
}

// Both running at once, commits flowing: background C++ workers in their
// lane and the SQL worker in a loop of its own.
TEST_F(TwoAppsTest, BothAppsRunningAtOnceEachApplyEveryEventOnce) {
  const std::string audit = stream("audit");
  auto app =
      act::app(pool_)
          .with(counter_)
          .lane(Lane{"cpp", 10'000ms, 10, 100, 50ms})
          .with(cpp_projection("cpp").build())
          .on<Incremented>("Incremented")
          .to(Route{audit, "^" + prefix_ + "-", 0, "cpp"})
          .handle("audit", [&](const Incremented&,
                               ReactionContext& context) { recorder_.record(context.target(), context.event()); })
          .build();
  app.start();
  std::atomic<bool> done{false};
  std::thread sql_app([&] {
    while (!done) {
      run_sql_worker();
      std::this_thread::sleep_for(5ms);
    }
  });
  const std::int64_t last = deposit(app, {account("a"), account("b"), account("c")}, 20);
  EXPECT_TRUE(eventually([&] { return subscription(sql_target_).at == last; }));
  done = true;
  sql_app.join();
  EXPECT_TRUE(eventually([&] { return recorder_.ids(audit).size() == 60u && cpp_total(account("c")) == "210/20"; }));
  app.shutdown();

  for (const std::string name : {"a", "b", "c"}) {
    EXPECT_EQ(sql_balance(account(name)), "210/20") << name;
    EXPECT_EQ(cpp_total(account(name)), "210/20") << name;
  }
}

}  // namespace
}  // namespace act::test
