// A reaction moved between two versions of an app (docs/reactions.md,
// "Moving a reaction"): to another lane, to a renamed target, or to a wider
// or narrower source. The first version handles some events and stops with
// others waiting; more are committed while no version runs and after the
// second starts. Every event the rule gives the reaction is handled exactly
// once over both versions, and the move is logged.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "support/counter_app.hpp"
#include "support/log_capture.hpp"
#include "support/recorder.hpp"
#include "support/totals.hpp"

namespace act::test {
namespace {

class ReactionMovesTest : public DatabaseTest {
 protected:
  void SetUp() override {
    DatabaseTest::SetUp();
    prefix_ = stream("shop");
  }

  // A version of the app: one reaction on Incremented, delivered by `route`,
  // recording each event it handles.
  App version(const std::function<ReactionBuilder<Incremented>(ReactionBuilder<Incremented>)>& route,
              const std::shared_ptr<LogCapture>& log) {
    return route(app(pool_).with(counter_).lane(Lane{"slow"}).logger(log).on<Incremented>("Incremented"))
        .handle("record", [this](const Incremented&,
                                 ReactionContext& context) { recorder_.record(context.target(), context.event()); })
        .build();
  }

  std::int64_t increment(App& app, const std::string& stream) {
    return app.do_action("increment", {stream, kAnn, {}}, Increment{1}).id;
  }

  // How often each event was handled, over every target.
  std::map<std::int64_t, int> handled() const {
    std::map<std::int64_t, int> times;
    for (const auto& [target, ids] : recorder_.all())
      for (const std::int64_t id : ids) ++times[id];
    return times;
  }

  static std::map<std::int64_t, int> once(const std::set<std::int64_t>& ids) {
    std::map<std::int64_t, int> times;
    for (const std::int64_t id : ids) times[id] = 1;
    return times;
  }

  // Runs the first version: events before (handled), then events left waiting
  // when it stops. Returns the ids committed to `streams`, in order.
  std::vector<std::int64_t> run_first(App& first, const std::vector<std::string>& streams) {
    std::vector<std::int64_t> ids;
    for (const std::string& s : streams) ids.push_back(increment(first, s));
    first.settle();
    for (const std::string& s : streams) ids.push_back(increment(first, s));  // waiting when it stops
    return ids;
  }

  // The first version, routed to `route`, as run_first runs it on two
  // streams, then one more event committed while no version runs.
  std::set<std::int64_t> first_version(const Route& route, const std::shared_ptr<LogCapture>& log) {
    std::set<std::int64_t> ids;
    {
      App first = version([&](auto builder) { return std::move(builder).to(route); }, log);
      for (const std::int64_t id : run_first(first, {orders(1), orders(2)})) ids.insert(id);
    }
    App writer = app(pool_).with(counter_).build();
    ids.insert(increment(writer, orders(1)));
    return ids;
  }

  std::string orders(int n) const { return prefix_ + "-orders-" + std::to_string(n); }
  std::string refunds(int n) const { return prefix_ + "-refunds-" + std::to_string(n); }

  std::string prefix_;
  State<Counter> counter_ = counter_state();
  Recorder recorder_;
};

TEST_F(ReactionMovesTest, ALaneChangeGoesOnFromTheWatermarkAndIsLogged) {
  const std::string target = stream("audit");
  const std::string source = "^" + prefix_ + "-orders-";
  const auto log = std::make_shared<LogCapture>();
  std::set<std::int64_t> expected = first_version(Route{target, source}, log);
  const std::int64_t stopped_at = subscription(target).at;
  App second = version([&](auto builder) { return std::move(builder).to(Route{target, source, 0, "slow"}); }, log);
  second.settle();
  expected.insert(increment(second, orders(2)));
  second.settle();

  EXPECT_EQ(handled(), once(expected)) << "each event once, over both versions";
  EXPECT_EQ(subscription(target).lane, "slow");
  const auto line = log->find("reaction lane moved");
  ASSERT_TRUE(line) << "the move is logged";
  EXPECT_EQ(line->field("target"), target);
  EXPECT_EQ(line->field("from"), "default");
  EXPECT_EQ(line->field("to"), "slow");
  EXPECT_EQ(line->field("at"), std::to_string(stopped_at));
}

TEST_F(ReactionMovesTest, ARenamedTargetTakesOverTheFormerWatermark) {
  const std::string former = stream("audit-old");
  const std::string target = stream("audit-new");
  const std::string source = "^" + prefix_ + "-orders-";
  const auto log = std::make_shared<LogCapture>();
  std::set<std::int64_t> expected = first_version(Route{former, source}, log);
  const std::int64_t stopped_at = subscription(former).at;
  const auto renamed = [&](auto builder) { return std::move(builder).to(Route{target, source}).renamed_from(former); };
  App second = version(renamed, log);
  second.settle();
  expected.insert(increment(second, orders(1)));
  second.settle();

  EXPECT_EQ(handled(), once(expected)) << "each event once, over both versions";
  EXPECT_TRUE(store_->query_streams(StreamFilter::exactly(former)).empty()) << "the former row is retired";
  const auto line = log->find("reaction target renamed");
  ASSERT_TRUE(line) << "the move is logged";
  EXPECT_EQ(line->field("target"), target);
  EXPECT_EQ(line->field("from"), former);
  EXPECT_EQ(line->field("at"), std::to_string(stopped_at));

  // Another process of the second version starts later: the move is done, nothing happens twice.
  const auto later_log = std::make_shared<LogCapture>();
  App again = version(renamed, later_log);
  expected.insert(increment(again, orders(3)));
  again.settle();
  second.settle();
  EXPECT_EQ(handled(), once(expected));
  EXPECT_FALSE(later_log->find("reaction target renamed"));
}

TEST_F(ReactionMovesTest, AFormerNameWithNoRowIsRefusedWhenTheTargetHasNoneEither) {
  const std::string target = stream("audit");
  const auto log = std::make_shared<LogCapture>();
  App writer = app(pool_).with(counter_).build();
  increment(writer, orders(1));
  App misspelt = version(
      [&](auto builder) {
        return std::move(builder).to(Route{target, "^" + prefix_ + "-orders-"}).renamed_from(target + "-typo");
      },
      log);
  try {
    misspelt.settle();
    ADD_FAILURE() << "a former name with no row must refuse the start";
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("neither has a subscription row"), std::string::npos) << error.what();
  }
  EXPECT_TRUE(store_->query_streams(StreamFilter::exactly(target)).empty()) << "nothing subscribed";
  EXPECT_EQ(recorder_.total(), 0U) << "no history replayed";
}

TEST_F(ReactionMovesTest, ARenameIsRefusedWhenBothRowsExist) {
  const std::string former = stream("audit-old");
  const std::string target = stream("audit-new");
  // In a lane no app of the suite claims.
  const auto row = [](const std::string& name) {
    return SubscriptionSpec{name, std::nullopt, std::vector<std::string>{"Incremented"}, 0, "parked", std::nullopt};
  };
  store_->subscribe({row(former), row(target)});
  App second = version([&](auto builder) { return std::move(builder).to(target).renamed_from(former); },
                       std::make_shared<LogCapture>());
  EXPECT_THROW(second.settle(), std::logic_error);
  EXPECT_EQ(store_->query_streams(StreamFilter::exactly(former)).size(), 1U) << "both rows stay";
  EXPECT_EQ(store_->query_streams(StreamFilter::exactly(target)).size(), 1U);
}

TEST_F(ReactionMovesTest, ASourceWidenedThenNarrowedHandlesTheNewSourceAfterTheWatermarkOnly) {
  const std::string target = stream("audit");
  const std::string narrow = "^" + prefix_ + "-orders-";
  const std::string wide = "^" + prefix_ + "-(orders|refunds)-";
  const auto log = std::make_shared<LogCapture>();
  std::set<std::int64_t> expected;
  App writer = app(pool_).with(counter_).build();
  const std::int64_t refund_before = increment(writer, refunds(1));  // before the watermark: never handled
  {
    App first = version([&](auto builder) { return std::move(builder).to(Route{target, narrow}); }, log);
    for (const std::int64_t id : run_first(first, {orders(1)})) expected.insert(id);
  }
  const std::int64_t stopped_at = subscription(target).at;
  // After the watermark, while no version runs: handled by the wider source.
  expected.insert(increment(writer, refunds(1)));
  expected.insert(increment(writer, orders(1)));
  {
    App second = version([&](auto builder) { return std::move(builder).to(Route{target, wide}); }, log);
    second.settle();
    expected.insert(increment(second, refunds(2)));
    expected.insert(increment(second, orders(2)));
    second.settle();
    const auto line = log->find("reaction source moved");
    ASSERT_TRUE(line) << "the widening is logged";
    EXPECT_EQ(line->field("target"), target);
    EXPECT_EQ(line->field("from"), narrow);
    EXPECT_EQ(line->field("to"), wide);
    EXPECT_EQ(line->field("at"), std::to_string(stopped_at));
    EXPECT_EQ(subscription(target).source, wide);
  }
  EXPECT_EQ(handled(), once(expected)) << "every event of the wider source after the watermark, once";
  EXPECT_FALSE(handled().contains(refund_before));

  // And back: refunds are no longer the reaction's, orders go on from the watermark.
  const std::int64_t refund_after = increment(writer, refunds(2));
  expected.insert(increment(writer, orders(2)));
  const auto narrowed_log = std::make_shared<LogCapture>();
  App third = version([&](auto builder) { return std::move(builder).to(Route{target, narrow}); }, narrowed_log);
  third.settle();
  expected.insert(increment(third, orders(1)));
  increment(third, refunds(1));
  third.settle();
  EXPECT_EQ(handled(), once(expected)) << "orders once each, no refund after the narrowing";
  EXPECT_FALSE(handled().contains(refund_after));
  const auto line = narrowed_log->find("reaction source moved");
  ASSERT_TRUE(line) << "the narrowing is logged";
  EXPECT_EQ(line->field("from"), wide);
  EXPECT_EQ(line->field("to"), narrow);
  EXPECT_EQ(store_->query_streams(StreamFilter::exactly(target)).size(), 1U) << "one row, under the target's name";
}

TEST_F(ReactionMovesTest, AFormerNameThatCannotBeRightIsRefusedAtBuild) {
  const auto noop = [](const Incremented&, ReactionContext&) {};
  EXPECT_THROW(app(pool_).with(counter_).on<Incremented>("Incremented").renamed_from("old"), std::invalid_argument)
      << "a target computed per event has no former row";
  EXPECT_THROW(app(pool_).with(counter_).on<Incremented>("Incremented").to("audit").renamed_from(""),
               std::invalid_argument);
  EXPECT_THROW(app(pool_)
                   .with(counter_)
                   .on<Incremented>("Incremented")
                   .to("audit")
                   .renamed_from("audit")
                   .handle("a", noop)
                   .build(),
               std::invalid_argument)
      << "renamed from itself";
  const auto two_routes = [&](const Route& first, const Route& second) {
    return app(pool_)
        .with(counter_)
        .on<Incremented>("Incremented")
        .to(first)
        .handle("a", noop)
        .on<Incremented>("Incremented")
        .to(second)
        .handle("b", noop)
        .build();
  };
  Route renamed{"audit"};
  renamed.renamed_from = "old";
  EXPECT_THROW(two_routes(renamed, Route{"old"}), std::invalid_argument)
      << "the former name is still a target of this app";
  Route renamed_otherwise{"audit"};
  renamed_otherwise.renamed_from = "older";
  EXPECT_THROW(two_routes(renamed, renamed_otherwise), std::invalid_argument) << "two former names for one target";
  EXPECT_THROW(act::projection("totals")
                   .renamed_from("old")
                   .on<Incremented>("Incremented", [](const Incremented&, const Committed&, Sql&) {})
                   .run_inline()
                   .build(),
               std::invalid_argument)
      << "an inline projection has no row";
}

// A projection renamed after a worker of the first version was killed in the
// middle of a batch: the killed transaction left nothing, the retry the first
// version scheduled moves with the watermark, and every event is applied
// exactly once (a second application would break the _applied table's
// primary key).
TEST_F(ReactionMovesTest, ARenamedProjectionAfterAKilledWorkerAppliesEveryEventOnce) {
  const std::string table = "moved_totals";
  const std::string former = stream("totals-old");
  const std::string target = stream("totals-new");
  const std::string source = "^" + prefix_ + "-orders-";
  const auto applied = [&] { return database().sql("SELECT count(*) FROM " + table + "_applied"); };
  std::atomic<bool> killed{false};
  std::int64_t last = -1;
  {
    // A short lease: the failed attempt's retry is due soon.
    App first = app(pool_)
                    .with(counter_)
                    .lane(Lane{"default", std::chrono::milliseconds(200)})
                    .with(totals::counting(totals::kept_in(act::projection(former).source(source), table), table,
                                           [&](const Committed& event, Sql& sql) {
                                             if (event.data.at("by") != 2 || killed.exchange(true)) return;
                                             totals::kill_mid_transaction(table, sql, database());
                                           })
                              .build())
                    .build();
    first.settle();
    for (int by = 1; by <= 3; ++by) last = first.do_action("increment", {orders(by), kAnn, {}}, Increment{by}).id;
    const DrainResult drained = first.drain();
    ASSERT_TRUE(killed);
    EXPECT_EQ(drained.failed, 1);
    EXPECT_EQ(applied(), "1") << "the event before the killed one, applied again in a transaction of its own";
  }
  const std::int64_t stopped_at = subscription(former).at;
  const auto log = std::make_shared<LogCapture>();
  App second = app(pool_)
                   .with(counter_)
                   .logger(log)
                   .with(totals::counting(
                             totals::kept_in(act::projection(target).source(source).renamed_from(former), table), table)
                             .build())
                   .build();
  std::size_t failures = 0;
  EXPECT_TRUE(eventually([&] {
    failures += second.settle().failures().size();
    return applied() == "3";
  })) << "the killed event and the one after it, once the retry is due";
  EXPECT_EQ(failures, 0U);
  const auto line = log->find("reaction target renamed");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->field("at"), std::to_string(stopped_at));
  last = second.do_action("increment", {orders(4), kAnn, {}}, Increment{4}).id;
  second.settle();
  EXPECT_EQ(applied(), "4") << "each event applied once";
  EXPECT_EQ(database().sql("SELECT count(*) FROM " + table + "_applied WHERE event_id = -1"), "0");
  EXPECT_EQ(database().sql("SELECT sum(total) FROM " + table), "10");
  EXPECT_EQ(subscription(target).at, last);
}

}  // namespace
}  // namespace act::test
