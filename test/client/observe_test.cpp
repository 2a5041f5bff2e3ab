// Observing an app: the logger port hears what the library meets and does
// not throw (snapshot commits that failed, acknowledgements the database
// dropped, events no reaction handles), and the lifecycle callbacks hear
// commits, acknowledgements, blocks, settles and errors, from any thread.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "support/counter_app.hpp"
#include "support/failing_app.hpp"
#include "support/log_capture.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class ObserveTest : public DatabaseTest {
 protected:
  State<Counter> counter_ = counter_state();
  std::shared_ptr<LogCapture> log_ = std::make_shared<LogCapture>();
  Recorder recorder_;
};

TEST_F(ObserveTest, ASnapshotCommitThatFailsIsLoggedAsAWarning) {
  const std::string s = stream();
  // The policy runs between the action's commit and its snapshot's: a commit
  // made there moves the head, so the snapshot's version guard refuses it.
  CounterOptions options;
  options.snap = [&](const Counter&, const SnapStats&) {
    store_->commit(s, {Message{"Incremented", {{"by", 1}}, std::nullopt}});
    return true;
  };
  const auto racing = counter_state(options);
  App app = act::app(pool_).with(racing).logger(log_).build();
  const ActionResult done = app.do_action("increment", {s, kAnn, {}}, Increment{5});

  EXPECT_FALSE(done.snapshotted);
  EXPECT_EQ(app.stats().snapshot_failures, 1u);
  const auto line = log_->find("snapshot commit failed");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->level, LogLevel::kWarning);
  EXPECT_EQ(line->field("stream"), s);
  EXPECT_EQ(line->field("state"), "Counter");
  EXPECT_FALSE(line->field("error").empty());
}

TEST_F(ObserveTest, EventsNoReactionHandlesAreLoggedAndPassedOver) {
  const std::string target = stream("t");
  const std::string s = stream();
  // The row selects Decremented too, as an older version of the app may have made it.
  store_->subscribe({SubscriptionSpec{
      target, s, std::vector<std::string>{"Incremented", "Decremented"}, 0, std::string(kDefaultLane), {}}});
  App app =
      act::app(pool_)
          .with(counter_)
          .logger(log_)
          .on<Incremented>("Incremented")
          .to(Route{target, s})
          .handle("record", [&](const Incremented&,
                                ReactionContext& context) { recorder_.record(context.target(), context.event()); })
          .build();
  const auto up = app.do_action("increment", {s, kAnn, {}}, Increment{2});
  const auto down = app.do_action("decrement", {s, kAnn, {}}, Decrement{1});
  app.settle();

  EXPECT_EQ(recorder_.ids(target), ids_of({up}));
  EXPECT_EQ(subscription(target).at, down.id) << "the unknown event was passed over";
  const auto line = log_->find("no reaction handles");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->level, LogLevel::kWarning);
  EXPECT_EQ(line->field("target"), target);
  EXPECT_EQ(line->field("names"), "Decremented");
  EXPECT_EQ(line->field("count"), "1");
}

TEST_F(ObserveTest, AnAcknowledgementTheDatabaseDroppedIsLogged) {
  const std::string target = stream("t");
  const std::string s = stream();
  const Lane brief{"brief", 100ms};
  std::atomic<bool> stolen{false};
  App app = act::app(pool_)
                .with(counter_)
                .logger(log_)
                .lane(brief)
                .on<Incremented>("Incremented")
                .to(Route{target, s, 0, brief.name})
                .handle("slow",
                        [&](const Incremented&, ReactionContext&) {
                          if (stolen.exchange(true)) return;
                          // Past the lease, another worker takes the target over.
                          std::this_thread::sleep_for(300ms);
                          ASSERT_EQ(store_->claim(1, 0, "thief", 10s, brief.name).size(), 1u);
                        })
                .build();
  app.do_action("increment", {s, kAnn, {}}, Increment{1});
  const SettleResult settled = app.settle();

  EXPECT_TRUE(stolen);
  EXPECT_EQ(settled.drained.lost, 1);
  const auto line = log_->find("acknowledgement lost");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->level, LogLevel::kWarning);
  EXPECT_EQ(line->field("target"), target);
  EXPECT_EQ(line->field("lane"), brief.name);
}

TEST_F(ObserveTest, LifecycleCallbacksHearCommitsAcksBlocksSettlesAndErrors) {
  const std::string good = stream("good");
  const std::string bad = stream("bad");
  const std::string s = stream();
  std::mutex mutex;
  std::vector<Committed> committed;
  std::vector<Acked> acked;
  std::vector<ReactionFailure> blocked;
  std::vector<SettleResult> settled;
  std::vector<WorkerError> errors;
  const auto keep = [&](auto& into) {
    return [&](const auto& item) {
      const std::lock_guard lock(mutex);
      if constexpr (std::is_same_v<std::decay_t<decltype(item)>, std::vector<Committed>>) {
        into.insert(into.end(), item.begin(), item.end());
      } else {
        into.push_back(item);
      }
    };
  };
  App app = act::app(pool_)
                .with(counter_)
                .logger(log_)
                .on_committed(keep(committed))
                .on_acked(keep(acked))
                .on_blocked(keep(blocked))
                .on_settled(keep(settled))
                .on_error(keep(errors))
                .on<Incremented>("Incremented")
                .to(Route{good, s})
                .handle("fine", [](const Incremented&, ReactionContext&) {})
                .on<Incremented>("Incremented")
                .to(Route{bad, s})
                .handle("print_label",
                        [](const Incremented&, ReactionContext&) { throw NonRetryableError("printer on fire"); })
                .build();
  const ActionResult done = app.do_action("increment_twice", {s, kAnn, {}}, Increment{1});
  const SettleResult result = app.settle();

  const std::lock_guard lock(mutex);
  ASSERT_EQ(committed.size(), 2u);
  EXPECT_EQ(committed[0].id, done.events[0].id);
  EXPECT_EQ(committed[1].id, done.events[1].id);
  ASSERT_EQ(acked.size(), 1u) << "only the good target moved";
  EXPECT_EQ(acked[0].target, good);
  EXPECT_EQ(acked[0].at, done.id);
  EXPECT_EQ(acked[0].lane, std::string(kDefaultLane));
  ASSERT_EQ(blocked.size(), 1u);
  EXPECT_EQ(blocked[0].target, bad);
  EXPECT_EQ(blocked[0].reaction, "print_label");
  EXPECT_TRUE(blocked[0].blocked);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_EQ(settled[0].passes, result.passes);
  EXPECT_EQ(settled[0].failures().size(), 1u);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].where, "lane " + std::string(kDefaultLane));
  EXPECT_EQ(errors[0].error, "printer on fire");
  ASSERT_TRUE(errors[0].failure.has_value());
  EXPECT_EQ(errors[0].failure->target, bad);
  EXPECT_TRUE(log_->lines().empty()) << "settle logs nothing it returns";
}

TEST_F(ObserveTest, AThrowingCallbackIsLoggedAndKillsNoWorker) {
  const std::string target = stream("t");
  const std::string s = stream();
  App app =
      act::app(pool_)
          .with(counter_)
          .logger(log_)
          .on_committed([](const std::vector<Committed>&) { throw std::runtime_error("committed listener broke"); })
          .on_acked([](const Acked&) { throw std::runtime_error("acked listener broke"); })
          .on<Incremented>("Incremented")
          .to(Route{target, s})
          .handle("record", [&](const Incremented&,
                                ReactionContext& context) { recorder_.record(context.target(), context.event()); })
          .build();
  app.start();
  const ActionResult first = app.do_action("increment", {s, kAnn, {}}, Increment{1});
  ASSERT_TRUE(eventually([&] { return subscription(target).at >= first.id; }));
  const ActionResult second = app.do_action("increment", {s, kAnn, {}}, Increment{2});
  ASSERT_TRUE(recorder_.wait_for(2)) << "the worker carried on after the callback threw";
  ASSERT_TRUE(eventually([&] { return subscription(target).at >= second.id; }));
  app.shutdown();

  EXPECT_EQ(recorder_.ids(target), ids_of({first, second}));
  std::vector<std::string> broken;
  for (const LogLine& line : log_->lines()) {
    if (line.message == "a callback threw") broken.push_back(line.field("callback") + ": " + line.field("error"));
  }
  EXPECT_NE(std::find(broken.begin(), broken.end(), "on_committed: committed listener broke"), broken.end());
  EXPECT_NE(std::find(broken.begin(), broken.end(), "on_acked: acked listener broke"), broken.end());
}

TEST_F(ObserveTest, AGivenLoggerHearsWorkerFailuresInsteadOfStderr) {
  const std::string target = stream("t");
  const std::string s = stream();
  std::atomic<int> errors{0};
  App app = failing_app(act::app(pool_).with(counter_).logger(log_).on_error([&](const WorkerError& error) {
    if (error.failure) ++errors;
  }),
                        target, s);
  const std::optional<std::string> on_stderr = stderr_until_blocked(app, *store_, s, target);
  ASSERT_TRUE(on_stderr.has_value());

  const auto line = log_->find("reaction failed");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->level, LogLevel::kError) << "a blocked stream is an error";
  EXPECT_EQ(line->field("reaction"), "print_label");
  EXPECT_EQ(line->field("target"), target);
  EXPECT_EQ(line->field("error"), "printer on fire");
  EXPECT_EQ(line->field("blocked"), "true");
  EXPECT_EQ(errors, 1) << "on_error heard it on the worker's thread";
  EXPECT_EQ(on_stderr->find("printer on fire"), std::string::npos) << "stderr: " << *on_stderr;
}

TEST(StderrLoggerTest, WritesOneLineWithQuotedFieldsAndDropsLinesBelowItsThreshold) {
  const auto logger = stderr_logger(LogLevel::kInfo);
  testing::internal::CaptureStderr();
  logger->log(LogLevel::kWarning, "acknowledgement lost", {{"target", "t-1"}, {"error", "say \"no\"\nnow"}});
  logger->log(LogLevel::kDebug, "not shown", {});
  const std::string written = testing::internal::GetCapturedStderr();
  EXPECT_EQ(written, "pg_act: warning: acknowledgement lost error=\"say \\\"no\\\"\\nnow\" target=t-1\n");
}

}  // namespace
}  // namespace act::test
