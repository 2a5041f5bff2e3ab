// Failures are never swallowed: settle() and drain() report what failed
// without an on_failure listener, and settle can be made to throw.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

const ReactionOptions kOneRetry{1, true, Backoff{1ms, 1ms, false}};

class SettleFailureTest : public DatabaseTest {
 protected:
  // Reacts to Incremented on source into target; fails on `by == 2` until healthy_.
  App fragile_app(const std::string& target, const std::string& source,
                  std::function<void(const ReactionFailure&)> listener = {}) {
    auto builder = act::app(pool_).with(counter_);
    if (listener) builder = std::move(builder).on_failure(std::move(listener));
    return std::move(builder)
        .on<Incremented>("Incremented")
        .to(Route{target, source})
        .options(kOneRetry)
        .handle("print_label",
                [this](const Incremented& incremented, ReactionContext& context) {
                  if (incremented.by == 2 && !healthy_) throw std::runtime_error("printer on fire");
                  recorder_.record(context.target(), context.event());
                })
        .build();
  }

  State<Counter> counter_ = counter_state();
  Recorder recorder_;
  std::atomic<bool> healthy_{false};
};

// Settle stops at the first pass without progress, which may come before the
// retry's 1 ms backoff has passed: settle again (bounded) until the retry ran
// and blocked the stream, adding up what each settle reported.
DrainResult SettleUntilBlocked(App& app) {
  DrainResult total;
  for (int attempt = 0; attempt < 200 && total.blocked == 0; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(2ms);
    total += app.settle().drained;
  }
  return total;
}

TEST_F(SettleFailureTest, SettleReportsEveryFailedAttemptWithoutAListener) {
  const std::string target = stream("t");
  const std::string s = stream();
  App app = fragile_app(target, s);
  app.drain();
  const auto first = app.do_action("increment", {s, kAnn, {}}, Increment{1});
  const auto second = app.do_action("increment", {s, kAnn, {}}, Increment{2});

  const DrainResult settled = SettleUntilBlocked(app);
  EXPECT_EQ(settled.failed, 2) << "the first attempt and one retry";
  EXPECT_EQ(settled.blocked, 1);
  ASSERT_EQ(settled.failures.size(), 2u);
  for (std::size_t i = 0; i < settled.failures.size(); ++i) {
    const ReactionFailure& failure = settled.failures[i];
    EXPECT_EQ(failure.reaction, "print_label");
    EXPECT_EQ(failure.target, target);
    EXPECT_EQ(failure.stream, s) << "the failing event's own stream";
    EXPECT_EQ(failure.event_id, second.events.front().id);
    EXPECT_EQ(failure.event_name, "Incremented");
    EXPECT_EQ(failure.error, "printer on fire");
    EXPECT_EQ(failure.retry, static_cast<std::int32_t>(i));
    EXPECT_EQ(failure.blocked, i == 1) << "the retry spent the budget";
  }
  EXPECT_EQ(recorder_.ids(target), ids_of({first}));

  const std::string text = to_string(settled.failures.back());
  for (const std::string& part : {std::string("print_label"), target, std::string("printer on fire"), std::string("blocked")})
    EXPECT_NE(text.find(part), std::string::npos) << part << " in: " << text;

  healthy_ = true;
  app.unblock(StreamFilter::named({target}));
  const SettleResult clean = app.settle();
  EXPECT_TRUE(clean.failures().empty());
  EXPECT_EQ(recorder_.ids(target), ids_of({first, second}));
}

TEST_F(SettleFailureTest, DrainReportsTheFailuresOfItsCycle) {
  const std::string target = stream("t");
  const std::string s = stream();
  App app = fragile_app(target, s);
  app.drain();
  app.do_action("increment", {s, kAnn, {}}, Increment{2});
  const DrainResult drained = app.drain();
  EXPECT_EQ(drained.failed, 1);
  ASSERT_EQ(drained.failures.size(), 1u);
  EXPECT_EQ(drained.failures[0].reaction, "print_label");
  EXPECT_FALSE(drained.failures[0].blocked);
}

TEST_F(SettleFailureTest, SettleOrThrowRaisesTheFailures) {
  const std::string target = stream("t");
  const std::string s = stream();
  std::atomic<int> heard{0};
  App app = fragile_app(target, s, [&](const ReactionFailure&) { ++heard; });
  app.drain();
  app.do_action("increment", {s, kAnn, {}}, Increment{1});
  EXPECT_NO_THROW(app.settle_or_throw()) << "nothing failed";

  // Both events wait: the pass that handles the first meets the failure, the
  // next one retries and blocks. Settle finishes its passes, then throws.
  app.do_action("increment", {s, kAnn, {}}, Increment{1});
  app.do_action("increment", {s, kAnn, {}}, Increment{2});
  bool blocked = false;
  try {
    app.settle_or_throw();
    FAIL() << "a failing handler settled without an error";
  } catch (const SettleError& error) {
    // The first attempt fails; the retry runs in this settle or (its backoff
    // not yet over when a pass found nothing to do) in a later one.
    ASSERT_GE(error.failures().size(), 1u);
    ASSERT_LE(error.failures().size(), 2u);
    EXPECT_EQ(error.failures().front().reaction, "print_label");
    EXPECT_FALSE(error.failures().front().blocked);
    EXPECT_EQ(error.result().drained.blocked, error.failures().size() == 2 ? 1 : 0)
        << "settle finished its passes before throwing";
    EXPECT_EQ(error.result().drained.handled, 1) << "the event before the failing one was handled";
    const std::string message = error.what();
    EXPECT_NE(message.find("printer on fire"), std::string::npos) << message;
    EXPECT_NE(message.find(target), std::string::npos) << message;
    blocked = error.failures().back().blocked;
  }
  // Until the retry has blocked the stream, every settle that runs it throws.
  for (int attempt = 0; attempt < 200 && !blocked; ++attempt) {
    try {
      app.settle_or_throw();
      std::this_thread::sleep_for(2ms);
    } catch (const SettleError& error) {
      blocked = !error.failures().empty() && error.failures().back().blocked;
    }
  }
  EXPECT_TRUE(blocked) << "the retry blocked the stream";
  EXPECT_EQ(heard, 2) << "the listener still hears every attempt";

  SettleOptions throwing;
  throwing.throw_on_failure = true;
  healthy_ = true;
  EXPECT_EQ(app.unblock(StreamFilter::named({target})), 1);
  EXPECT_NO_THROW(app.settle(throwing)) << "healthy again";
  EXPECT_EQ(recorder_.ids(target).size(), 3u);
}

TEST_F(SettleFailureTest, AFailingProjectionIsNamedInTheReport) {
  const std::string s = stream();
  const std::string name = stream("labels");
  ReactionOptions once{0, true, std::nullopt};
  auto labels = projection(name)
                    .source(s)
                    .options(once)
                    .on<Incremented>("Incremented",
                                     [](const Incremented&, const Committed&, Sql&) {
                                       throw std::runtime_error("no such table");
                                     })
                    .build();
  App app = act::app(pool_).with(counter_).with(labels).build();
  app.drain();
  const auto done = app.do_action("increment", {s, kAnn, {}}, Increment{1});
  const SettleResult settled = app.settle();
  ASSERT_EQ(settled.failures().size(), 1u);
  const ReactionFailure& failure = settled.failures()[0];
  EXPECT_EQ(failure.reaction, name);
  EXPECT_EQ(failure.target, name);
  EXPECT_EQ(failure.stream, s);
  EXPECT_EQ(failure.event_id, done.events.front().id);
  EXPECT_EQ(failure.error, "no such table");
  EXPECT_TRUE(failure.blocked);
}

}  // namespace
}  // namespace act::test
