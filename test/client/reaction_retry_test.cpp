// Failing handlers: retries with backoff, the block once the budget is spent,
// unblock, non-retryable errors, leases spacing retries, and deferred events.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

const ReactionOptions kQuickRetries{2, true, Backoff{1ms, 1ms, false}};

class RetryTest : public DatabaseTest {
 protected:
  Subscription subscription(const std::string& target) {
    const auto rows = store_->query_streams(StreamFilter::exactly(target));
    return rows.empty() ? Subscription{} : rows.front();
  }

  bool blocked(App& app, const std::string& target) {
    app.drain();
    for (const Subscription& row : app.blocked_streams()) {
      if (row.stream == target) return true;
    }
    return false;
  }

  State<Counter> counter_ = counter_state();
  Recorder recorder_;
};

TEST_F(RetryTest, AFailingHandlerIsRetriedThenBlockedWithItsError) {
  const std::string target = stream("fragile");
  const std::string s = stream();  // the only stream it reads: other tests' events stay out
  std::atomic<int> attempts{0};
  std::atomic<bool> healthy{false};
  std::vector<ReactionFailure> failures;
  auto app = act::app(pool_)
                 .with(counter_)
                 .on_failure([&](const ReactionFailure& failure) { failures.push_back(failure); })
                 .on<Incremented>("Incremented")
                 .to(Route{target, s})
                 .options(kQuickRetries)
                 .handle("fragile",
                         [&](const Incremented& incremented, ReactionContext& context) {
                           if (incremented.by == 2) {
                             ++attempts;
                             if (!healthy) throw std::runtime_error("printer on fire");
                           }
                           recorder_.record(context.target(), context.event());
                         })
                 .build();
  app.drain();
  const auto first = app.do_action("increment", {s, kAnn, {}}, Increment{1});
  const auto second = app.do_action("increment", {s, kAnn, {}}, Increment{2});

  ASSERT_TRUE(eventually([&] { return blocked(app, target); }));
  EXPECT_EQ(attempts, 3) << "the first attempt and max_retries = 2 more";
  const Subscription row = subscription(target);
  EXPECT_EQ(row.error, "printer on fire");
  EXPECT_EQ(row.at, first.events.front().id) << "the event before the failing one stays handled";
  EXPECT_EQ(recorder_.ids(target), ids_of({first}));
  ASSERT_EQ(failures.size(), 3u) << "every failed attempt is reported";
  for (std::size_t i = 0; i < failures.size(); ++i) {
    EXPECT_EQ(failures[i].target, target);
    EXPECT_EQ(failures[i].event_id, second.events.front().id);
    EXPECT_EQ(failures[i].event_name, "Incremented");
    EXPECT_EQ(failures[i].error, "printer on fire");
    EXPECT_EQ(failures[i].blocked, i == 2) << "the last one spent the budget";
  }
  app.drain();
  EXPECT_EQ(attempts, 3) << "a blocked stream is not claimed";

  healthy = true;
  EXPECT_EQ(app.unblock(StreamFilter::named({target})), 1);
  app.settle();
  EXPECT_EQ(attempts, 4);
  EXPECT_EQ(recorder_.ids(target), ids_of({first, second})) << "resumed at the watermark";
  EXPECT_EQ(subscription(target).at, second.events.front().id);
  EXPECT_FALSE(subscription(target).blocked);
}

TEST_F(RetryTest, ResetReplaysATargetAndPrioritizeIsRecorded) {
  const std::string target = stream("replayed");
  const std::string s = stream();
  auto app =
      act::app(pool_)
          .with(counter_)
          .on<Incremented>("Incremented")
          .to(Route{target, s})
          .handle("record", [&](const Incremented&,
                                ReactionContext& context) { recorder_.record(context.target(), context.event()); })
          .build();
  app.drain();
  const std::vector<ActionResult> done = {app.do_action("increment", {s, kAnn, {}}, Increment{1}),
                                          app.do_action("increment", {s, kAnn, {}}, Increment{2})};
  app.settle();
  EXPECT_EQ(app.prioritize(StreamFilter::exactly(target), 7), 1);
  EXPECT_EQ(subscription(target).priority, 7);

  EXPECT_EQ(app.reset(StreamFilter::named({target})), 1);
  EXPECT_EQ(subscription(target).at, -1) << "rewound; the work mark is kept";
  app.settle();
  const std::vector<std::int64_t> twice = {ids_of(done)[0], ids_of(done)[1], ids_of(done)[0], ids_of(done)[1]};
  EXPECT_EQ(recorder_.ids(target), twice) << "replayed from the first event, in order";
}

TEST_F(RetryTest, ANonRetryableErrorBlocksAtOnce) {
  const std::string target = stream("strict");
  const std::string s = stream();
  std::atomic<int> attempts{0};
  auto app = act::app(pool_)
                 .with(counter_)
                 .on<Incremented>("Incremented")
                 .to(Route{target, s})
                 .options(kQuickRetries)
                 .handle("strict",
                         [&](const Incremented&, ReactionContext&) {
                           ++attempts;
                           throw NonRetryableError("bad address");
                         })
                 .build();
  app.drain();
  app.do_action("increment", {s, kAnn, {}}, Increment{1});
  const DrainResult drained = app.drain();
  EXPECT_EQ(drained.blocked, 1);
  EXPECT_EQ(attempts, 1);
  EXPECT_EQ(subscription(target).error, "bad address");
}

TEST_F(RetryTest, WithoutBackoffAFailedAttemptKeepsItsLease) {
  const std::string target = stream("patient");
  const std::string s = stream();
  std::atomic<int> attempts{0};
  auto app = act::app(pool_)
                 .with(counter_)
                 .lane(Lane{"patient", 30s})
                 .on<Incremented>("Incremented")
                 .to(Route{target, s, 0, "patient"})
                 .handle("patient",
                         [&](const Incremented&, ReactionContext&) {
                           ++attempts;
                           throw std::runtime_error("not yet");
                         })
                 .build();
  app.drain();
  app.do_action("increment", {s, kAnn, {}}, Increment{1});
  EXPECT_EQ(app.drain().failed, 1);
  EXPECT_EQ(app.drain().leased, 0) << "the lease runs for 30 s: nobody retries before";
  EXPECT_EQ(attempts, 1);
  const Subscription row = subscription(target);
  EXPECT_TRUE(row.leased_by.has_value());
  EXPECT_EQ(row.retry, 0);
  EXPECT_FALSE(row.blocked);
}

// One attempt, one count: a failure after progress in the same batch keeps
// the progress without resetting the retry count (a plain ack would, and
// the failing event would start a fresh budget: four calls, two as retry 0).
TEST_F(RetryTest, AFailureAfterProgressCountsItsAttemptOnce) {
  const std::string target = stream("counted");
  const std::string s = stream();
  std::atomic<int> attempts{0};
  std::vector<ReactionFailure> failures;
  auto app = act::app(pool_)
                 .with(counter_)
                 .lane(Lane{"counted", 300ms})
                 .on_failure([&](const ReactionFailure& failure) { failures.push_back(failure); })
                 .on<Incremented>("Incremented")
                 .to(Route{target, s, 0, "counted"})
                 .options(ReactionOptions{2, true, std::nullopt})
                 .handle("counted",
                         [&](const Incremented& incremented, ReactionContext& context) {
                           if (incremented.by == 2) {
                             ++attempts;
                             throw std::runtime_error("still broken");
                           }
                           recorder_.record(context.target(), context.event());
                         })
                 .build();
  app.drain();
  const auto first = app.do_action("increment", {s, kAnn, {}}, Increment{1});
  app.do_action("increment", {s, kAnn, {}}, Increment{2});

  ASSERT_TRUE(eventually([&] { return blocked(app, target); }));
  EXPECT_EQ(attempts, 3) << "the first attempt and max_retries = 2 more, each counted once";
  ASSERT_EQ(failures.size(), 3u);
  for (std::size_t i = 0; i < failures.size(); ++i) {
    EXPECT_EQ(failures[i].retry, static_cast<std::int32_t>(i)) << "attempt " << i + 1;
    EXPECT_EQ(failures[i].blocked, i == 2);
  }
  EXPECT_EQ(recorder_.ids(target), ids_of({first})) << "the event before the failing one was handled once";
  EXPECT_EQ(subscription(target).at, first.events.front().id);
}

TEST_F(RetryTest, ADeferredEventWaitsUntilItIsDue) {
  const std::string target = stream("reminder");
  const std::string s = stream();
  std::optional<Timestamp> handled_at;
  std::optional<Timestamp> due;
  auto app = act::app(pool_)
                 .with(counter_)
                 .on<Incremented>("Incremented")
                 .to(Route{target, s})
                 .handle("remind",
                         [&](const Incremented&, ReactionContext& context) {
                           // Derived from the event, so every worker computes the same time.
                           due = context.event().created + 300ms;
                           const auto now = std::chrono::time_point_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now());
                           if (now < *due) context.defer_until(*due);
                           handled_at = now;
                         })
                 .build();
  app.drain();
  app.do_action("increment", {s, kAnn, {}}, Increment{1});
  const DrainResult first = app.drain();
  EXPECT_EQ(first.handled, 0);
  EXPECT_EQ(first.failed, 0) << "a defer is not a failure";
  ASSERT_TRUE(due.has_value());
  const Subscription row = subscription(target);
  ASSERT_TRUE(row.deferred_at.has_value());
  EXPECT_EQ(*row.deferred_at, *due);
  EXPECT_EQ(row.retry, -1);

  ASSERT_TRUE(eventually([&] { return app.drain().handled == 1; }));
  ASSERT_TRUE(handled_at.has_value());
  EXPECT_GE(*handled_at, *due) << "never before it was due";
}

}  // namespace
}  // namespace act::test
