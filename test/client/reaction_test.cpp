// Reactions: fixed targets marked by the database, same-stream and dynamic
// targets found by correlate, order per target, causation.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "react/correlator.hpp"
#include "support/counter_app.hpp"
#include "support/log_capture.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

inline const Actor kBot{"bot-1", "Bot"};

class ReactionTest : public DatabaseTest {
 protected:
  Subscription subscription(const std::string& target) {
    const auto rows = store_->query_streams(StreamFilter::exactly(target));
    EXPECT_EQ(rows.size(), 1u) << target;
    return rows.empty() ? Subscription{} : rows.front();
  }

  State<Counter> counter_ = counter_state();
  Recorder recorder_;
};

// A suite (and so a database) of its own: a bare target reads every stream's history.
class FixedTargetTest : public ReactionTest {};

TEST_F(FixedTargetTest, IsMarkedByTheCommitItself) {
  const std::string target = stream("audit");
  auto app = act::app(pool_)
                 .with(counter_)
                 .on<Incremented>("Incremented")
                 .to(target)
                 .handle("audit", [&](const Incremented&, ReactionContext& context) {
                   recorder_.record(context.target(), context.event());
                 })
                 .build();
  const std::string s = stream();
  app.drain();  // registers the fixed target
  const Subscription registered = subscription(target);
  EXPECT_EQ(registered.names, (std::vector<std::string>{"Incremented"}));
  EXPECT_FALSE(registered.source.has_value()) << "a bare target reads every stream";

  const std::vector<ActionResult> done = {app.do_action("increment", {s, kAnn, {}}, Increment{2}),
                                          app.do_action("increment", {s, kAnn, {}}, Increment{3})};
  EXPECT_EQ(subscription(target).correlated_at, ids_of(done).back()) << "commit raised the work mark";
  const DrainResult drained = app.drain();
  EXPECT_EQ(drained.handled, 2);
  EXPECT_EQ(recorder_.ids(target), ids_of(done));
  EXPECT_EQ(subscription(target).at, ids_of(done).back());
  EXPECT_EQ(app.drain().handled, 0) << "nothing is handled twice";
}

// A new version of an app that delivers another event to a fixed target
// widens the target's row (act.widen) when it starts, instead of refusing
// to: the database marks the target for the new event from then on. Events
// of it at or below the row's watermark (where the older version got to) are
// not delivered; those after it are.
TEST_F(ReactionTest, ANewVersionWidensAFixedTargetToTheEventsItAdds) {
  const std::string target = stream("audit");
  const std::string s = stream();
  const auto record = [&](const auto&, ReactionContext& context) {
    recorder_.record(context.target(), context.event());
  };
  auto v1 =
      act::app(pool_).with(counter_).on<Incremented>("Incremented").to(Route{target, s}).handle("up", record).build();
  v1.drain();  // registers the target with Incremented only
  const ActionResult up_1 = v1.do_action("increment", {s, kAnn, {}}, Increment{3});
  const ActionResult down_1 = v1.do_action("decrement", {s, kAnn, {}}, Decrement{1});
  const ActionResult up_2 = v1.do_action("increment", {s, kAnn, {}}, Increment{1});
  const ActionResult down_2 = v1.do_action("decrement", {s, kAnn, {}}, Decrement{1});
  EXPECT_EQ(v1.drain().handled, 2);
  ASSERT_EQ(subscription(target).at, up_2.id) << "v1 handled its two Incremented events";

  auto log = std::make_shared<LogCapture>();
  const auto v2 = [&] {
    return act::app(pool_)
        .with(counter_)
        .logger(log)
        .on<Incremented>("Incremented")
        .to(Route{target, s})
        .handle("up", record)
        .on<Decremented>("Decremented")
        .to(Route{target, s})
        .handle("down", record)
        .build();
  };
  auto newer = v2();
  DrainResult drained;
  ASSERT_NO_THROW(drained = newer.drain());
  const Subscription widened = subscription(target);
  EXPECT_EQ(widened.names, (std::vector<std::string>{"Incremented", "Decremented"}));
  EXPECT_EQ(widened.source, s);
  EXPECT_EQ(drained.handled, 1) << "the Decremented after the watermark";
  EXPECT_EQ(recorder_.ids(target), ids_of({up_1, up_2, down_2}))
      << "not " << down_1.id << ", at or below the watermark";
  const auto line = log->find("fixed target widened");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->level, LogLevel::kWarning);
  EXPECT_EQ(line->field("target"), target);
  EXPECT_EQ(line->field("added"), "Decremented");
  EXPECT_EQ(line->field("at"), std::to_string(up_2.id));

  // The commit marks the widened row: a Decremented committed now is handled.
  const ActionResult down_3 = newer.do_action("decrement", {s, kAnn, {}}, Decrement{1});
  EXPECT_EQ(subscription(target).correlated_at, down_3.id);
  EXPECT_EQ(newer.drain().handled, 1);
  EXPECT_EQ(recorder_.ids(target), ids_of({up_1, up_2, down_2, down_3}));
  EXPECT_EQ(subscription(target).at, down_3.id);

  // Another process of the new version finds the row widened: nothing more to do or say.
  auto other = v2();
  EXPECT_EQ(other.drain().handled, 0);
  const auto lines = log->lines();
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const LogLine& each) { return each.message.starts_with("fixed target widened"); }),
            1);
}

TEST_F(ReactionTest, SameStreamTargetsAreFoundByCorrelateThenMarkedByCommits) {
  auto app = act::app(pool_)
                 .with(counter_)
                 .on<Incremented>("Incremented")
                 .handle("echo", [&](const Incremented&, ReactionContext& context) {
                   recorder_.record(context.target(), context.event());
                 })
                 .build();
  const std::string first = stream();
  const std::string second = stream();
  std::vector<ActionResult> on_first;
  for (int i = 1; i <= 3; ++i) on_first.push_back(app.do_action("increment", {first, kAnn, {}}, Increment{i}));
  const std::vector<ActionResult> on_second = {app.do_action("increment", {second, kAnn, {}}, Increment{7})};

  EXPECT_EQ(app.drain().handled, 0) << "no target exists before correlate";
  const CorrelateResult correlated = app.correlate();
  EXPECT_TRUE(correlated.scanned);
  EXPECT_GE(correlated.subscribed, 2);
  EXPECT_GE(app.settle().drained.handled, 4) << "and older streams: a new reaction sees history";
  EXPECT_EQ(recorder_.ids(first), ids_of(on_first)) << "in commit order";
  EXPECT_EQ(recorder_.ids(second), ids_of(on_second));
  EXPECT_EQ(subscription(first).source, first);

  // Known targets need no correlate: the commit marks their rows.
  on_first.push_back(app.do_action("increment", {first, kAnn, {}}, Increment{4}));
  EXPECT_EQ(app.drain().handled, 1);
  EXPECT_EQ(recorder_.ids(first), ids_of(on_first));
}

TEST_F(ReactionTest, ATargetChosenFromEventDataGetsOnlyItsEvents) {
  const std::string prefix = stream("by");
  const std::string mine = stream("src");
  auto app = act::app(pool_)
                 .with(counter_)
                 .on<Incremented>("Incremented")
                 .to([mine](const Committed& event) -> std::optional<Route> {
                   if (!event.stream.starts_with(mine)) return std::nullopt;  // other tests' events
                   return Route{"by-" + mine + "-" + std::to_string(event.data.at("by").get<int>())};
                 })
                 .handle("bucket", [&](const Incremented&, ReactionContext& context) {
                   recorder_.record(context.target(), context.event());
                 })
                 .build();
  const auto one_a = app.do_action("increment", {mine + "-a", kAnn, {}}, Increment{1});
  const auto two = app.do_action("increment", {mine + "-b", kAnn, {}}, Increment{2});
  const auto one_b = app.do_action("increment", {mine + "-b", kAnn, {}}, Increment{1});
  const SettleResult settled = app.settle();
  EXPECT_EQ(settled.subscribed, 2);
  EXPECT_EQ(recorder_.ids("by-" + mine + "-1"), ids_of({one_a, one_b}));
  EXPECT_EQ(recorder_.ids("by-" + mine + "-2"), ids_of({two}));
}

TEST_F(ReactionTest, ActionsRunByAHandlerRecordTheirCause) {
  const std::string source = stream();
  const std::string copy = source + "-copy";
  auto app = act::app(pool_)
                 .with(counter_)
                 .on<Incremented>("Incremented")
                 .to(Route{stream("mirror"), source})  // reads only the source stream: no echo of the copy
                 .handle("mirror",
                         [&](const Incremented& incremented, ReactionContext& context) {
                           context.do_action("increment", {copy, kBot, {}}, Increment{incremented.by});
                         })
                 .build();
  app.drain();
  const ActionResult original = app.do_action("increment", {source, kAnn, {}}, Increment{5}, {.correlation = "order-9"});
  app.settle();
  std::vector<Committed> copies;
  Query query;
  query.stream = copy;
  store_->query(query, [&](const Committed& event) { copies.push_back(event); });
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0].data, (nlohmann::json{{"by", 5}}));
  EXPECT_EQ(copies[0].meta.at("correlation"), "order-9") << "the chain keeps its correlation";
  const Committed& cause = original.events.front();
  EXPECT_EQ(copies[0].meta.at("causation").at("event"),
            (nlohmann::json{{"id", cause.id}, {"name", "Incremented"}, {"stream", source}}));
  EXPECT_EQ(copies[0].meta.at("causation").at("action").at("actor").at("id"), "bot-1");
}

TEST_F(ReactionTest, EachTargetSeesItsEventsInOrderAcrossManyStreams) {
  auto app = act::app(pool_)
                 .with(counter_)
                 .lane(Lane{"ordering", std::chrono::seconds(10), 3, 4})  // small bites: many cycles
                 .on<Incremented>("Incremented")
                 .to([](const Committed& event) { return std::optional<Route>(Route{event.stream, event.stream, 0, "ordering"}); })
                 .handle("echo", [&](const Incremented&, ReactionContext& context) {
                   recorder_.record(context.target(), context.event());
                 })
                 .build();
  std::map<std::string, std::vector<std::int64_t>> committed;
  std::vector<std::string> streams;
  for (int i = 0; i < 6; ++i) streams.push_back(stream());
  for (int round = 0; round < 10; ++round) {
    for (const std::string& s : streams) {
      const auto result = app.do_action("increment", {s, kAnn, {}}, Increment{round + 1});
      committed[s].push_back(result.events.front().id);
    }
  }
  const SettleResult settled = app.settle();
  EXPECT_GT(settled.passes, 2) << "the lane's limits split the work into cycles";
  for (const std::string& s : streams) EXPECT_EQ(recorder_.ids(s), committed[s]) << s;
}

// A lane's byte budget bounds each stream's batch (one event at least):
// with one byte, every cycle hands a stream a single event.
TEST_F(ReactionTest, ALanesByteBudgetBoundsEachStreamsBatch) {
  const std::string s = stream();
  const std::string target = stream("bytes");
  Lane tight{"tight"};
  tight.bytes = 1;
  auto app = act::app(pool_)
                 .with(counter_)
                 .lane(tight)
                 .on<Incremented>("Incremented")
                 .to(Route{target, s, 0, "tight"})
                 .handle("echo", [&](const Incremented&, ReactionContext& context) {
                   recorder_.record(context.target(), context.event());
                 })
                 .build();
  app.drain();
  std::vector<ActionResult> results;
  for (int by = 1; by <= 3; ++by) results.push_back(app.do_action("increment", {s, kAnn, {}}, Increment{by}));
  EXPECT_EQ(app.drain().handled, 1) << "the first event only: the next ones would pass the budget";
  EXPECT_EQ(app.drain().handled, 1);
  EXPECT_EQ(app.drain().handled, 1);
  EXPECT_EQ(recorder_.ids(target), ids_of(results)) << "in order, each once";
  EXPECT_THROW(act::app(pool_).lane(Lane{"none", 10s, 10, 100, 1s, 1, 0}).build(), std::invalid_argument);
}

// A suite of its own, so the statements counted are this test's: once a
// dynamic target's row is known to select every dynamic name and to be
// marked by commits on its source, correlate reads the new events without
// subscribing it again, and still stores its checkpoint at least every
// react::Correlator::kStoreEvery.
class KnownTargetTest : public ReactionTest {};

TEST_F(KnownTargetTest, IsNotSubscribedAgainButTheCheckpointIsStillStored) {
  const std::string source = stream();
  const std::string target = source + "-copy";
  auto app = act::app(pool_)
                 .with(counter_)
                 .on<Incremented>("Incremented")
                 .to([source, target](const Committed& event) {
                   return event.stream == source ? std::optional<Route>(Route{target, source}) : std::nullopt;
                 })
                 .handle("copy", [&](const Incremented&, ReactionContext& context) {
                   recorder_.record(context.target(), context.event());
                 })
                 .build();
  app.do_action("increment", {source, kAnn, {}}, Increment{1});
  ASSERT_EQ(app.settle({.debounce = 0ms}).subscribed, 1);  // subscribes, claims, reads the row once

  const ActionResult next = app.do_action("increment", {source, kAnn, {}}, Increment{2});
  const auto sent = statements(*pool_);
  const CorrelateResult correlated = app.correlate();
  EXPECT_EQ(statements(*pool_) - sent, 1u) << "the read of the new events, no act.subscribe";
  EXPECT_EQ(correlated.events, 1);
  EXPECT_EQ(correlated.checkpoint, next.events.back().id);
  EXPECT_EQ(subscription(target).correlated_at, next.events.back().id) << "the commit marked the row";
  EXPECT_EQ(app.drain().handled, 1);
  EXPECT_EQ(recorder_.ids(target).size(), 2u);

  std::this_thread::sleep_for(react::Correlator::kStoreEvery + 100ms);
  const ActionResult last = app.do_action("increment", {source, kAnn, {}}, Increment{3});
  const auto before = statements(*pool_);
  EXPECT_EQ(app.correlate().checkpoint, last.events.back().id);
  EXPECT_EQ(statements(*pool_) - before, 2u) << "the read, then the subscribe that stores the checkpoint";
  EXPECT_EQ(database().sql("SELECT at FROM act.correlators WHERE key <> '' ORDER BY at DESC LIMIT 1"),
            std::to_string(last.events.back().id));
}

}  // namespace
}  // namespace act::test
