// Background workers: reacting without being asked, surviving lost
// connections, sharing work between app instances, lanes that do not wait
// for each other, and a clean shutdown.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <set>
#include <thread>

#include "support/counter_app.hpp"
#include "support/failing_app.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class WorkerTest : public DatabaseTest {
 protected:
  // An app reacting to Incremented on the source stream, handled into recorder_.
  App recording_app(const std::string& target, const std::string& source, const Lane& lane = Lane{"default"}) {
    return act::app(pool_)
        .with(counter_)
        .lane(lane)
        .on<Incremented>("Incremented")
        .to(Route{target, source, 0, lane.name})
        .handle("record", [this](const Incremented&, ReactionContext& context) {
          recorder_.record(context.target(), context.event());
        })
        .build();
  }

  State<Counter> counter_ = counter_state();
  Recorder recorder_;
};

TEST_F(WorkerTest, WorkersReactToCommitsWithoutBeingAsked) {
  const std::string target = stream("t");
  const std::string s = stream();
  App app = recording_app(target, s);
  app.start();
  std::vector<ActionResult> done;
  for (int i = 1; i <= 5; ++i) done.push_back(app.do_action("increment", {s, kAnn, {}}, Increment{i}));
  ASSERT_TRUE(recorder_.wait_for(5));
  EXPECT_EQ(recorder_.ids(target), ids_of(done));
  app.shutdown();
}

TEST_F(WorkerTest, CommitsFromAnotherProcessWakeTheWorkers) {
  const std::string target = stream("t");
  const std::string s = stream();
  App app = recording_app(target, s);
  app.start();
  // A writer with a pool of its own and no reactions: nothing in this process tells the workers.
  auto writer = act::app(database().pool()).with(counter_).build();
  const auto done = writer.do_action("increment", {s, kAnn, {}}, Increment{1});
  ASSERT_TRUE(recorder_.wait_for(1));
  EXPECT_EQ(recorder_.ids(target), ids_of({done}));
}

TEST_F(WorkerTest, WorkersCarryOnAfterTheirConnectionsAreKilled) {
  const std::string target = stream("t");
  const std::string s = stream();
  App app = recording_app(target, s);
  app.start();
  const auto before = app.do_action("increment", {s, kAnn, {}}, Increment{1});
  ASSERT_TRUE(recorder_.wait_for(1));
  // A reaction is at least once: killed between handler and ack it runs again. Kill after the ack.
  ASSERT_TRUE(eventually([&] { return subscription(target).at >= before.id; }));
  // Every other session of the database: the pool's, and the waker's own.
  database().sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                 "WHERE datname = current_database() AND pid <> pg_backend_pid()");
  // The pool may hand out one connection whose end it has not seen yet: that call fails, the next heals.
  std::optional<ActionResult> after;
  ASSERT_TRUE(eventually([&] {
    try {
      after = app.do_action("increment", {s, kAnn, {}}, Increment{2});
    } catch (const StoreError&) {
    }
    return after.has_value();
  }));
  ASSERT_TRUE(recorder_.wait_for(2));
  EXPECT_EQ(recorder_.ids(target), ids_of({before, *after}));
}

TEST_F(WorkerTest, TwoAppInstancesShareTheWorkAndHandleEachEventOnce) {
  const std::string prefix = stream("shared");
  std::atomic<int> by_first{0};
  std::atomic<int> by_second{0};
  // Same reactions, separate pools: two instances of one service.
  const auto instance = [&](std::atomic<int>& count) {
    return act::app(database().pool())
        .with(counter_)
        .lane(Lane{"shared", 10s, 4, 3})
        .on<Incremented>("Incremented")
        .to([prefix](const Committed& event) -> std::optional<Route> {
          if (!event.stream.starts_with(prefix)) return std::nullopt;
          return Route{event.stream + "-echo", event.stream, 0, "shared"};
        })
        .handle("echo",
                [&](const Incremented&, ReactionContext& context) {
                  recorder_.record(context.target(), context.event());
                  ++count;
                  std::this_thread::sleep_for(1ms);  // long enough for the other instance to claim the next streams
                })
        .build();
  };
  App first = instance(by_first);
  App second = instance(by_second);
  first.start();
  second.start();

  auto writer = act::app(database().pool()).with(counter_).build();
  std::map<std::string, std::vector<std::int64_t>> committed;
  for (int round = 0; round < 10; ++round) {
    for (int s = 0; s < 12; ++s) {
      const std::string name = prefix + "-" + std::to_string(s);
      committed[name + "-echo"].push_back(writer.do_action("increment", {name, kAnn, {}}, Increment{1}).id);
    }
  }
  ASSERT_TRUE(recorder_.wait_for(120));
  first.shutdown();
  second.shutdown();
  EXPECT_EQ(recorder_.total(), 120u) << "no event was handled twice";
  EXPECT_EQ(recorder_.all(), committed) << "every target saw its events once, in order";
  EXPECT_EQ(by_first + by_second, 120);
  std::cout << "[          ] shared: " << by_first << " by the first instance, " << by_second << " by the second\n";
}

TEST_F(WorkerTest, ASlowLaneDoesNotHoldUpAFastOne) {
  const std::string slow_source = stream();
  const std::string fast_source = stream();
  std::promise<void> fast_done;
  std::shared_future<void> fast_finished = fast_done.get_future().share();
  std::atomic<bool> fast_finished_while_slow_ran{false};
  std::atomic<bool> slow_started{false};
  auto app = act::app(pool_)
                 .with(counter_)
                 .lane(Lane{"slow"})
                 .lane(Lane{"fast"})
                 .on<Incremented>("Incremented")
                 .to(Route{stream("slow"), slow_source, 0, "slow"})
                 .handle("slow",
                         [&](const Incremented&, ReactionContext&) {
                           slow_started = true;
                           std::this_thread::sleep_for(100ms);
                           // In one lane the fast handler would queue behind this one and never finish in time.
                           fast_finished_while_slow_ran = fast_finished.wait_for(20s) == std::future_status::ready;
                         })
                 .on<Incremented>("Incremented")
                 .to(Route{stream("fast"), fast_source, 0, "fast"})
                 .handle("fast", [&](const Incremented&, ReactionContext&) { fast_done.set_value(); })
                 .build();
  app.start();
  app.do_action("increment", {slow_source, kAnn, {}}, Increment{1});
  ASSERT_TRUE(eventually([&] { return slow_started.load(); }));
  app.do_action("increment", {fast_source, kAnn, {}}, Increment{1});
  ASSERT_TRUE(eventually([&] { return fast_finished.wait_for(0s) == std::future_status::ready; }));
  app.shutdown();  // waits for the slow handler
  EXPECT_TRUE(fast_finished_while_slow_ran) << "the fast lane finished while the slow lane's handler was still running";
}

TEST_F(WorkerTest, ShutdownFinishesTheEventInHandAndReleasesTheRest) {
  const std::string target = stream("t");
  const std::string s = stream();
  std::atomic<bool> entered{false};
  auto app = act::app(pool_)
                 .with(counter_)
                 .lane(Lane{"patient", 30s})
                 .on<Incremented>("Incremented")
                 .to(Route{target, s, 0, "patient"})
                 .handle("record",
                         [&](const Incremented&, ReactionContext& context) {
                           if (!entered.exchange(true)) {
                             while (!context.stopping()) std::this_thread::sleep_for(1ms);
                           }
                           recorder_.record(context.target(), context.event());
                         })
                 .build();
  std::vector<ActionResult> done;
  for (int i = 1; i <= 3; ++i) done.push_back(app.do_action("increment", {s, kAnn, {}}, Increment{i}));
  app.start();
  ASSERT_TRUE(eventually([&] { return entered.load(); }));
  app.shutdown();

  EXPECT_EQ(recorder_.ids(target), ids_of({done[0]})) << "the event in hand was finished, no later one started";
  const Subscription row = subscription(target);
  EXPECT_EQ(row.at, done[0].events.front().id);
  EXPECT_FALSE(row.leased_by.has_value()) << "the lease was handed back, not left to expire (30 s)";

  app.settle();  // what shutdown left is still there
  EXPECT_EQ(recorder_.ids(target), ids_of(done));
}

// Backends of the test database inside a claim that waits in the server
// (act.claim_events with wait_millis, asleep on the horizon in concurrent mode).
int waiting_claims(const TestDatabase& database) {
  return std::stoi(database.sql(
      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
      "AND state = 'active' AND query LIKE '%act.claim_events%' AND wait_event_type = 'Extension'"));
}

TEST_F(WorkerTest, AParkedLaneClaimsInTheServerUntilACommitOrAWakeUp) {
  const bool concurrent = database().sql("SELECT act.mode()") == "concurrent";
  const std::string target = stream("t");
  const std::string s = stream();
  // A cycle and a wait slice of a minute: only a commit, a wake-up or stop
  // ends the lane's wait before then.
  App app = recording_app(target, s, Lane{"parked", 10s, 10, 100, 60s});
  WorkerOptions options;
  options.wait_slice = 60s;
  app.start(options);
  auto writer = act::app(database().pool()).with(counter_).build();  // nothing in this process tells the workers
  std::vector<ActionResult> done{writer.do_action("increment", {s, kAnn, {}}, Increment{1})};
  ASSERT_TRUE(recorder_.wait_for(1));
  // Fenced mode's wait would poll: the lane parks on the waker's wake-ups there.
  ASSERT_TRUE(eventually([&] { return waiting_claims(database()) == (concurrent ? 1 : 0); }));

  done.push_back(writer.do_action("increment", {s, kAnn, {}}, Increment{2}));
  ASSERT_TRUE(recorder_.wait_for(2)) << "the commit woke the parked claim";
  EXPECT_EQ(recorder_.ids(target), ids_of(done));

  // A reset makes work no commit announces: it interrupts the waiting claim.
  ASSERT_TRUE(eventually([&] { return waiting_claims(database()) == (concurrent ? 1 : 0); }));
  EXPECT_EQ(app.reset(StreamFilter::exactly(target)), 1);
  ASSERT_TRUE(recorder_.wait_for(4, 20s)) << "the reset's replay came before the minute's wait was over";

  // Stop cancels the waiting claim: nothing is let go after the grace, and
  // no claim waits on in the server.
  ASSERT_TRUE(eventually([&] { return waiting_claims(database()) == (concurrent ? 1 : 0); }));
  app.shutdown(10s);
  EXPECT_EQ(waiting_claims(database()), 0);
}

TEST_F(WorkerTest, WithoutAListenerAWorkerLogsFailuresToStderr) {
  const std::string target = stream("t");
  const std::string s = stream();
  App app = failing_app(act::app(pool_).with(counter_), target, s);
  const std::optional<std::string> logged = stderr_until_blocked(app, *store_, s, target);
  ASSERT_TRUE(logged.has_value());
  EXPECT_NE(logged->find("printer on fire"), std::string::npos) << "logged: " << *logged;
  EXPECT_NE(logged->find("print_label"), std::string::npos) << "names the reaction; logged: " << *logged;
  EXPECT_NE(logged->find(target), std::string::npos) << "names the target; logged: " << *logged;
  EXPECT_NE(logged->find("blocked"), std::string::npos) << "says the stream is blocked; logged: " << *logged;
}

TEST_F(WorkerTest, AListenerHearsFailuresInsteadOfTheLog) {
  const std::string target = stream("t");
  const std::string s = stream();
  std::atomic<int> heard{0};
  App app = failing_app(act::app(pool_).with(counter_).on_failure([&](const ReactionFailure&) { ++heard; }), target, s);
  const std::optional<std::string> logged = stderr_until_blocked(app, *store_, s, target);
  ASSERT_TRUE(logged.has_value());
  EXPECT_EQ(heard, 1);
  EXPECT_EQ(logged->find("printer on fire"), std::string::npos) << "logged: " << *logged;
}

}  // namespace
}  // namespace act::test
