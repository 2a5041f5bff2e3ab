// Which workers start and how they stop: WorkerOptions::only_lanes, and
// shutdown(grace), which lets a stuck handler go instead of waiting for it.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <thread>

#include "support/counter_app.hpp"
#include "support/log_capture.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class WorkerOptionsTest : public DatabaseTest {
 protected:
  State<Counter> counter_ = counter_state();
  Recorder recorder_;
  std::shared_ptr<LogCapture> log_ = std::make_shared<LogCapture>();
};

TEST_F(WorkerOptionsTest, OnlyTheNamedLanesRun) {
  const Lane mine{stream("mine"), 10s, 10, 100, 50ms};
  const Lane theirs{stream("theirs"), 10s, 10, 100, 50ms};
  const std::string my_source = stream();
  const std::string their_source = stream();
  const std::string my_target = stream("t-mine");
  const std::string their_target = stream("t-theirs");
  const auto record = [&](const Incremented&, ReactionContext& context) {
    recorder_.record(context.target(), context.event());
  };
  App app = act::app(pool_)
                .with(counter_)
                .lane(mine)
                .lane(theirs)
                .on<Incremented>("Incremented")
                .to(Route{my_target, my_source, 0, mine.name})
                .handle("mine", record)
                .on<Incremented>("Incremented")
                .to(Route{their_target, their_source, 0, theirs.name})
                .handle("theirs", record)
                .build();
  WorkerOptions options;
  options.only_lanes = {mine.name};
  app.start(options);
  const ActionResult theirs_done = app.do_action("increment", {their_source, kAnn, {}}, Increment{1});
  const ActionResult mine_done = app.do_action("increment", {my_source, kAnn, {}}, Increment{1});
  ASSERT_TRUE(eventually([&] { return !recorder_.ids(my_target).empty(); }));
  std::this_thread::sleep_for(300ms);  // six cycles of the other lane, had it a worker
  app.shutdown();

  EXPECT_EQ(recorder_.ids(my_target), ids_of({mine_done}));
  EXPECT_TRUE(recorder_.ids(their_target).empty()) << "no worker ran the lane left out";
  EXPECT_LT(subscription(their_target).at, theirs_done.id);
  app.settle();  // its work was there all along
  EXPECT_EQ(recorder_.ids(their_target), ids_of({theirs_done}));
}

TEST_F(WorkerOptionsTest, StartRefusesALaneTheAppDoesNotDeclare) {
  App app = act::app(pool_)
                .with(counter_)
                .on<Incremented>("Incremented")
                .to(stream("t"))
                .handle("record", [](const Incremented&, ReactionContext&) {})
                .build();
  WorkerOptions options;
  options.only_lanes = {std::string(kDefaultLane), "no-such-lane"};
  try {
    app.start(options);
    FAIL() << "started with an undeclared lane";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("no-such-lane"), std::string::npos) << error.what();
  }
}

TEST_F(WorkerOptionsTest, ShutdownWithAGraceLetsAStuckHandlerGo) {
  const std::string target = stream("t");
  const std::string s = stream();
  // Shared with the handler, which outlives this test's frame once let go.
  struct Progress {
    std::atomic<bool> entered{false};
    std::atomic<bool> finished{false};
    std::atomic<bool> saw_stopping{false};
  };
  const auto progress = std::make_shared<Progress>();
  auto pool = database().pool();
  const std::weak_ptr<ConnectionPool> pool_in_use = pool;
  std::optional<App> app(act::app(std::move(pool))
                             .with(counter_)
                             .logger(log_)
                             .lane(Lane{"stuck", 30s})
                             .on<Incremented>("Incremented")
                             .to(Route{target, s, 0, "stuck"})
                             .handle("deaf",
                                     [progress](const Incremented&, ReactionContext& context) {
                                       progress->entered = true;
                                       std::this_thread::sleep_for(4s);  // deaf to stopping(), far past the grace
                                       progress->saw_stopping = context.stopping();
                                       progress->finished = true;
                                     })
                             .build());
  app->do_action("increment", {s, kAnn, {}}, Increment{1});
  app->start();
  ASSERT_TRUE(eventually([&] { return progress->entered.load(); }));

  const auto asked = Clock::now();
  app->shutdown(200ms);
  const auto took = Clock::now() - asked;
  EXPECT_FALSE(progress->finished) << "shutdown returned while the handler still ran";
  EXPECT_LT(took, 2s) << "the handler sleeps 4 s: shutdown did not wait for it";
  const auto line = log_->find("shutdown let workers go");
  ASSERT_TRUE(line.has_value());
  EXPECT_NE(line->field("workers").find("lane stuck"), std::string::npos) << line->field("workers");

  app.reset();
  EXPECT_FALSE(pool_in_use.expired()) << "the worker let go still holds the app's core";
  ASSERT_TRUE(eventually([&] { return progress->finished.load(); }));
  EXPECT_TRUE(progress->saw_stopping) << "the handler it let go was told the app is stopping";
  EXPECT_TRUE(eventually([&] { return pool_in_use.expired(); })) << "the thread let the core go once it ended";
}

TEST_F(WorkerOptionsTest, ShutdownWithAGraceAndNothingStuckLetsNoWorkerGo) {
  const std::string target = stream("t");
  const std::string s = stream();
  auto pool = database().pool();
  const std::weak_ptr<ConnectionPool> pool_in_use = pool;
  std::optional<App> app(act::app(std::move(pool))
                             .with(counter_)
                             .logger(log_)
                             .on<Incremented>("Incremented")
                             .to(Route{target, s})
                             .handle("record",
                                     [&](const Incremented&, ReactionContext& context) {
                                       recorder_.record(context.target(), context.event());
                                     })
                             .build());
  WorkerOptions options;
  options.wait_slice = 2s;  // the waker may outlive the grace: let go, as it ends by itself, unremarked
  app->start(options);
  const ActionResult done = app->do_action("increment", {s, kAnn, {}}, Increment{1});
  ASSERT_TRUE(recorder_.wait_for(1));
  app->shutdown(1s);

  const auto let_go = log_->find("shutdown let workers go");
  EXPECT_FALSE(let_go.has_value()) << "let go: " << let_go.value_or(LogLine{}).field("workers");
  EXPECT_EQ(recorder_.ids(target), ids_of({done}));
  EXPECT_EQ(subscription(target).at, done.id) << "the lane's worker acknowledged before it stopped";
  app.reset();
  EXPECT_TRUE(eventually([&] { return pool_in_use.expired(); })) << "every thread, the waker too, ended by itself";
}

}  // namespace
}  // namespace act::test
