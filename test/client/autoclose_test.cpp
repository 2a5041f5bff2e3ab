// Autoclose: a state's policy closes its streams through a reaction of
// their own (target "__autoclose__:<stream>"): retired when the policy
// holds, trimmed to a retention window, deferred to when it may hold, and
// skipped (then tried again) while another reaction has work in the stream.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include "support/counter_app.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

Timestamp now() { return std::chrono::time_point_cast<std::chrono::microseconds>(std::chrono::system_clock::now()); }

class AutocloseTest : public DatabaseTest {
 protected:
  App app_with(const AutoclosePolicy& policy, std::function<Timestamp()> clock = now, int snap_every = 0) {
    CounterOptions options;
    options.snap_every = snap_every;
    options.autoclose = policy;
    state_ = counter_state(options);
    return app(pool_).with(state_).clock(std::move(clock)).build();
  }
  // The name of the stream's last event, snapshots and tombstones included.
  std::string last_event(const std::string& s) {
    StatsQuery query;
    query.streams = std::vector<std::string>{s};
    const std::vector<StreamStats> stats = store_->query_stats(query);
    return stats.empty() ? "" : stats.front().head.name;
  }
  Subscription autoclose_row(const std::string& s) const { return subscription("__autoclose__:" + s); }

  State<Counter> state_ = counter_state();
};

TEST_F(AutocloseTest, RetiresAStreamWhoseLastEventIsNamed) {
  std::vector<std::string> archived;
  AutoclosePolicy policy;
  policy.all.is = {"Decremented"};
  policy.archive = [&](const std::string& s) { archived.push_back(s); };
  App closing = app_with(policy);
  const std::string done = stream();
  const std::string open = stream();
  closing.do_action("increment", {done, kAnn, {}}, Increment{2});
  closing.do_action("decrement", {done, kAnn, {}}, Decrement{1});
  closing.do_action("increment", {open, kAnn, {}}, Increment{2});
  closing.settle();
  EXPECT_EQ(archived, std::vector<std::string>{done}) << "archived once, before deletion";
  EXPECT_EQ(events_in(done), 1);
  EXPECT_EQ(last_event(done), "__tombstone__");
  EXPECT_THROW(closing.do_action("increment", {done, kAnn, {}}, Increment{1}), StreamClosedError);
  EXPECT_EQ(last_event(open), "Incremented") << "its last event is not Decremented";
  const Subscription row = autoclose_row(done);
  EXPECT_EQ(row.at, row.correlated_at.value_or(-2)) << "the autoclose target is caught up, not left claimable";
}

TEST_F(AutocloseTest, ReachesCountsDomainEventsOnly) {
  AutoclosePolicy policy;
  policy.any.reaches = 3;
  App closing = app_with(policy, now, 1);  // a snapshot after every action
  const std::string s = stream();
  closing.do_action("increment", {s, kAnn, {}}, Increment{1});
  closing.do_action("increment", {s, kAnn, {}}, Increment{1});
  closing.settle();
  EXPECT_EQ(events_in(s), 4) << "two increments and two snapshots: not three events yet";
  closing.do_action("increment", {s, kAnn, {}}, Increment{1});
  closing.settle();
  EXPECT_EQ(last_event(s), "__tombstone__");
}

TEST_F(AutocloseTest, AfterIsJudgedByTheAppsClock) {
  AutoclosePolicy policy;
  policy.all.after = 1h;
  const std::string young = stream();
  {
    App waiting = app_with(policy);
    waiting.do_action("increment", {young, kAnn, {}}, Increment{1});
    waiting.settle();
  }  // hands its correlator lease back
  EXPECT_EQ(last_event(young), "Incremented") << "an hour has not passed";
  const Subscription deferred = autoclose_row(young);
  ASSERT_TRUE(deferred.deferred_at.has_value()) << "deferred to when it comes due";
  EXPECT_GT(*deferred.deferred_at, now() + 59min);
  EXPECT_LT(*deferred.deferred_at, now() + 61min);
  EXPECT_LT(deferred.at, deferred.correlated_at.value_or(-1)) << "the event waits: it is handled again then";

  App later = app_with(policy, [] { return now() + 2h; });
  const std::string old = stream();
  later.do_action("increment", {old, kAnn, {}}, Increment{1});
  later.settle();
  EXPECT_EQ(last_event(old), "__tombstone__");
  EXPECT_THROW(later.do_action("increment", {old, kAnn, {}}, Increment{1}), StreamClosedError);
}

TEST_F(AutocloseTest, KeepTrimsToTheLatestSnapshotOutsideTheWindow) {
  int archived = 0;
  AutoclosePolicy policy;
  policy.keep = std::chrono::days(1);
  policy.archive = [&](const std::string&) { ++archived; };
  App trimming = app_with(policy, [] { return now() + std::chrono::days(2); }, 2);
  const std::string s = stream();
  for (int i = 0; i < 5; ++i) trimming.do_action("increment", {s, kAnn, {}}, Increment{1});  // snapshots after the 2nd and 4th
  trimming.settle();
  EXPECT_EQ(archived, 1) << "archived once: a second trim finds nothing before the boundary";
  EXPECT_EQ(events_in(s), 2) << "the boundary snapshot and the increment after it";
  const Subscription row = autoclose_row(s);
  EXPECT_EQ(row.at, row.correlated_at.value_or(-1)) << "nothing deleted is left for it to claim";
  trimming.clear_cache();
  EXPECT_EQ(trimming.load(state_, s).state.count, 5);
  EXPECT_EQ(trimming.do_action("increment", {s, kAnn, {}}, Increment{1}).state_as<Counter>().count, 6) << "still open";
}

TEST_F(AutocloseTest, OutsideItsHoursItDefersToTheNextOpening) {
  const Timestamp ten_am = std::chrono::floor<std::chrono::days>(now()) + 10h;
  AutoclosePolicy policy;
  policy.all.is = {"Incremented"};
  App night_only = app(pool_)
                       .with(counter_state(CounterOptions{0, 0, {}, 1, policy}))
                       .clock([ten_am] { return ten_am; })
                       .autoclose_window(AutocloseWindow{22, 6})
                       .build();
  const std::string s = stream();
  night_only.do_action("increment", {s, kAnn, {}}, Increment{1});
  night_only.settle();
  EXPECT_EQ(last_event(s), "Incremented") << "still open";
  EXPECT_EQ(autoclose_row(s).deferred_at, ten_am + 12h) << "22:00 the same day";
}

TEST_F(AutocloseTest, AStreamAnotherReactionHasWorkInIsTriedAgainLater) {
  AutoclosePolicy policy;
  policy.all.is = {"Incremented"};
  const std::string s = stream();
  App closing = app(pool_)
                    .with(counter_state(CounterOptions{0, 0, {}, 1, policy}))
                    .on<Incremented>("Incremented")
                    .to(Route{"stuck-" + s, s})
                    .handle("stuck", [](const Incremented&, ReactionContext&) { throw NonRetryableError("broken"); })
                    .build();
  closing.correlate();  // the fixed target is registered
  closing.do_action("increment", {s, kAnn, {}}, Increment{1});
  closing.settle();
  EXPECT_TRUE(subscription("stuck-" + s).blocked);
  EXPECT_EQ(last_event(s), "Incremented") << "not closed under a reaction that has not handled it";
  const Subscription row = autoclose_row(s);
  ASSERT_TRUE(row.deferred_at.has_value());
  EXPECT_GT(*row.deferred_at, now() + 30s) << "tried again in a minute";
  EXPECT_LT(row.at, row.correlated_at.value_or(-1));
}

TEST_F(AutocloseTest, AManualCloseIsNotHeldUpByAnAutocloseTarget) {
  AutoclosePolicy policy;
  policy.all.after = 1h;
  App waiting = app_with(policy);
  const std::string s = stream();
  waiting.do_action("increment", {s, kAnn, {}}, Increment{1});
  waiting.settle();
  ASSERT_LT(autoclose_row(s).at, autoclose_row(s).correlated_at.value_or(-1)) << "deferred with work";
  EXPECT_EQ(waiting.close({CloseTarget{s}}).truncated.count(s), 1u) << "it reads the head only, never the history";
}

TEST_F(AutocloseTest, BadPoliciesAreRefusedAtBuild) {
  const auto build = [](AutoclosePolicy policy, int snap_every = 0) {
    CounterOptions options;
    options.snap_every = snap_every;
    options.autoclose = std::move(policy);
    return counter_state(options);
  };
  EXPECT_THROW(build({}), std::invalid_argument) << "empty";
  EXPECT_THROW(build({.all = {.is = {"Reset"}}}), std::invalid_argument) << "an event the state does not declare";
  EXPECT_THROW(build({.all = {.after = 30s}}), std::invalid_argument) << "under a minute";
  EXPECT_THROW(build({.any = {.reaches = 0}}), std::invalid_argument);
  EXPECT_THROW(build({.keep = std::chrono::days(1)}), std::invalid_argument) << "a window without snapshots";
  EXPECT_THROW(build({.keep = 1h}, 2), std::invalid_argument) << "under a day";
  EXPECT_NO_THROW(build({.keep = std::chrono::days(1)}, 2));
  EXPECT_THROW(app(pool_).autoclose_window(AutocloseWindow{22, 24}), std::invalid_argument);
  EXPECT_THROW(app(pool_).autoclose_window(AutocloseWindow{5, 5}), std::invalid_argument);
}

}  // namespace
}  // namespace act::test
