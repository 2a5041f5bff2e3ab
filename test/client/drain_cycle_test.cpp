// The drain through act.claim_events: a steady cycle is one call, the
// acknowledgements it carries to the next claim are sent before a lane waits
// and when it stops, and the events handed over are the ones a per-stream
// act.query with the fetch's names returns.
#include <gtest/gtest.h>

#include <atomic>
#include <algorithm>
#include <chrono>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

const Message kUp{"Incremented", {{"by", 1}}, std::nullopt};
const Message kDown{"Decremented", {{"by", 1}}, std::nullopt};

class DrainCycleTest : public DatabaseTest {
 protected:
  Subscription row(const std::string& target) {
    const auto rows = store_->query_streams(StreamFilter::exactly(target));
    EXPECT_EQ(rows.size(), 1u) << target;
    return rows.empty() ? Subscription{} : rows.front();
  }
  std::int64_t commit(const std::string& s, const std::vector<Message>& events) {
    return store_->commit(s, events).back().id;
  }
  // What the old read hands over: act.query after -1 with these names.
  std::vector<std::int64_t> queried(const std::optional<std::string>& source, std::vector<std::string> names) {
    Query query;
    query.stream = source;
    query.stream_exact = source && !is_pattern(*source);
    query.after = -1;
    query.names = std::move(names);
    std::vector<std::int64_t> ids;
    store_->query(query, [&](const Committed& event) { ids.push_back(event.id); });
    return ids;
  }

  State<Counter> counter_ = counter_state();
  Recorder recorder_;
};

TEST_F(DrainCycleTest, ASteadyCycleIsOneCall) {
  const std::string target = stream("audit");
  auto app = act::app(pool_)
                 .with(counter_)
                 .on<Incremented>("Incremented")
                 .to(target)
                 .handle("audit", [&](const Incremented&, ReactionContext& context) {
                   recorder_.record(context.target(), context.event());
                 })
                 .build();
  app.settle({.debounce = 0ms});  // registers the target
  const std::int64_t last = commit(stream(), {kUp, kUp, kUp});

  const auto sent = statements(*pool_);
  const SettleResult settled = app.settle({.debounce = 0ms});
  // The claim that brings the events, then the claim that carries their
  // acknowledgement and finds nothing more: no act.query, no act.ack.
  EXPECT_EQ(statements(*pool_) - sent, 2u);
  EXPECT_EQ(settled.drained.handled, 3);
  EXPECT_EQ(recorder_.ids(target).size(), 3u);
  const Subscription after = row(target);
  EXPECT_EQ(after.at, last);
  EXPECT_FALSE(after.leased_by.has_value()) << "the carried acknowledgement released the lease";

  // drain() acknowledges before it returns: a claim, then its act.ack.
  const std::int64_t next = commit(stream(), {kUp});
  const auto before_drain = statements(*pool_);
  EXPECT_EQ(app.drain().handled, 1);
  EXPECT_EQ(statements(*pool_) - before_drain, 2u);
  EXPECT_EQ(row(target).at, next);
  EXPECT_FALSE(row(target).leased_by.has_value());
}

TEST_F(DrainCycleTest, ACarriedAcknowledgementWaitsForTheNextClaimOrAFlush) {
  const std::string target = stream("audit");
  const std::string s = stream();
  const Lane lane{"carry-" + target};
  auto app = act::app(pool_)
                 .with(counter_)
                 .lane(lane)
                 .on<Incremented>("Incremented")
                 .to(Route{target, s, 0, lane.name})
                 .handle("audit", [](const Incremented&, ReactionContext&) {})
                 .build();
  app.drain();
  const std::int64_t last = commit(s, {kUp, kUp});
  const std::int64_t start = row(target).at;

  // The store's side of a carried acknowledgement, as a lane's two cycles send it.
  const std::string by = "test-worker";
  std::vector<ClaimedLease> claimed = store_->claim_events(ClaimRequest{1, 0, by, 60s, lane.name, 100});
  ASSERT_EQ(claimed.size(), 1u);
  ASSERT_EQ(claimed.front().events.size(), 2u);
  const Acknowledgement ack{claimed.front().lease, claimed.front().events.back().id, std::nullopt, std::nullopt};
  EXPECT_EQ(row(target).at, start) << "nothing is acknowledged by the claim itself";
  EXPECT_EQ(row(target).leased_by, by);
  EXPECT_TRUE(store_->claim_events(ClaimRequest{1, 0, "other", 60s, lane.name, 100}, {ack}).empty());
  EXPECT_EQ(row(target).at, last) << "the next claim carried it";
  EXPECT_FALSE(row(target).leased_by.has_value());
}

// A lane that goes idle sends what its last cycle left before it waits. A
// failure with a backoff is no progress, so the lane parks right after that
// cycle: its retry acknowledgement (lease released, row deferred) reaches
// the database only through the flush before parking, never through a next
// claim. Lease and cycle are far longer than the test waits.
TEST_F(DrainCycleTest, AnIdleLaneSendsItsAcknowledgementsBeforeItWaits) {
  const std::string target = stream("later");
  const Lane lane{"idle-" + target, 60s, 10, 100, 60s};
  auto app = act::app(pool_)
                 .with(counter_)
                 .lane(lane)
                 .on<Incremented>("Incremented")
                 .to(Route{target, std::nullopt, 0, lane.name})
                 .options(ReactionOptions{3, true, Backoff{3'600'000ms, 3'600'000ms, false}})
                 .handle("later", [](const Incremented&, ReactionContext&) { throw std::runtime_error("not yet"); })
                 .build();
  app.start({.listen = false});
  std::this_thread::sleep_for(300ms);  // the start-up wake-up has been and gone
  commit(stream(), {kUp});
  EXPECT_TRUE(eventually([&] {
    const Subscription now = row(target);
    return now.deferred_at.has_value() && !now.leased_by.has_value();
  }, 10s)) << "the retry waits in the lane instead of reaching the database";
  app.shutdown();
}

// Stopping between events: what was handled is acknowledged before shutdown returns.
TEST_F(DrainCycleTest, StoppingSendsTheAcknowledgementsOfTheLastCycle) {
  const std::string target = stream("slow");
  const std::string source = stream();
  const Lane lane{"stop-" + target, 60s, 10, 100, 60s};
  std::atomic<int> entered{0};
  auto app = act::app(pool_)
                 .with(counter_)
                 .lane(lane)
                 .on<Incremented>("Incremented")
                 .to(Route{target, source, 0, lane.name})
                 .handle("slow", [&](const Incremented&, ReactionContext& context) {
                   ++entered;
                   const auto deadline = std::chrono::steady_clock::now() + 10s;
                   while (!context.stopping() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
                 })
                 .build();
  const std::vector<Committed> events = store_->commit(source, {kUp, kUp, kUp});
  app.start({.listen = false});
  ASSERT_TRUE(eventually([&] { return entered.load() > 0; }, 10s));
  app.shutdown();
  EXPECT_EQ(entered.load(), 1) << "the cycle stops between events";
  const Subscription stopped = row(target);
  EXPECT_EQ(stopped.at, events.front().id) << "the handled event is acknowledged";
  EXPECT_FALSE(stopped.leased_by.has_value()) << "and the lease handed back, not left to run out";
}

// The row of a fixed target made by an older version of the app selects
// more names than this version reads: a batch projection still gets only
// its own names, in the batches' order, as act.query with them returned.
TEST_F(DrainCycleTest, ARowWithMoreNamesHandsOverOnlyTheFetchNames) {
  const std::string prefix = stream("n");
  const std::string source = "^" + prefix + "-";
  const std::string target = prefix + "-projection";
  const Lane lane{"names-" + prefix, 30s, 10, 3};
  const auto older = projection(target)
                         .source(source)
                         .lane(lane.name)
                         .on<Incremented>("Incremented", [](const Incremented&, const Committed&, Sql&) {})
                         .on<Decremented>("Decremented", [](const Decremented&, const Committed&, Sql&) {})
                         .build();
  act::app(pool_).lane(lane).with(older).declares({"Incremented", "Decremented"}).build().drain();  // makes the row with both names
  EXPECT_EQ(row(target).names, (std::vector<std::string>{"Decremented", "Incremented"}));

  for (int i = 0; i < 4; ++i) commit(prefix + "-" + std::to_string(i % 2), {kUp, kDown, kDown, kUp});
  std::vector<std::int64_t> seen;
  std::vector<std::string> names;
  const auto newer = projection(target)
                         .source(source)
                         .lane(lane.name)
                         .on("Incremented")
                         .batch([&](const std::vector<Committed>& batch, Sql&) {
                           for (const Committed& event : batch) {
                             seen.push_back(event.id);
                             names.push_back(event.name);
                           }
                         })
                         .build();
  auto app = act::app(pool_).lane(lane).with(newer).declares({"Incremented", "Decremented"}).build();
  app.settle({.debounce = 0ms});
  EXPECT_EQ(seen, queried(source, {"Incremented"}));
  EXPECT_EQ(names, std::vector<std::string>(8, "Incremented"));
  EXPECT_EQ(row(target).at, row(target).correlated_at) << "the events of other names are passed over";
}

// A dynamic reaction may deliver names a fixed target's row lacks: those
// targets keep the per-stream read, so they still get every event.
TEST_F(DrainCycleTest, AFixedTargetReachedByADynamicRouteStillGetsItsEvents) {
  const std::string target = stream("both");
  auto app = act::app(pool_)
                 .with(counter_)
                 .on<Incremented>("Incremented")
                 .to(target)
                 .handle("fixed", [&](const Incremented&, ReactionContext& context) {
                   recorder_.record(context.target(), context.event());
                 })
                 .on<Decremented>("Decremented")
                 .to([target](const Committed&) { return std::optional<Route>(Route{target}); })
                 .handle("dynamic", [&](const Decremented&, ReactionContext& context) {
                   recorder_.record(context.target(), context.event());
                 })
                 .build();
  app.settle({.debounce = 0ms});
  EXPECT_EQ(row(target).names, (std::vector<std::string>{"Incremented"}));
  const std::string s = stream();
  const std::vector<Committed> mine = store_->commit(s, {kUp, kDown, kUp, kDown});
  app.settle({.debounce = 0ms});
  const std::vector<std::int64_t> seen = recorder_.ids(target);
  EXPECT_EQ(seen, queried(std::nullopt, {"Decremented", "Incremented"}));
  for (const Committed& event : mine)
    EXPECT_NE(std::find(seen.begin(), seen.end(), event.id), seen.end()) << event.name << " " << event.id;
}

// A dynamic target's row, made with every name this app reads, is read once
// by the first cycle that claims it; later cycles hand over the claim's
// events without a per-stream act.query. A suite of its own: its database
// holds no other test's claimable rows, so the statements counted are this test's.
class DynamicTargetRowTest : public DrainCycleTest {};

TEST_F(DynamicTargetRowTest, IsReadOnceThenItsCyclesAreOneCall) {
  const std::string source = stream();
  const std::string target = source + "-audit";
  const auto build = [&] {
    return act::app(pool_)
        .with(counter_)
        .on<Incremented>("Incremented")
        .to([source, target](const Committed& event) {
          return event.stream == source ? std::optional<Route>(Route{target}) : std::nullopt;
        })
        .handle("audit", [&](const Incremented&, ReactionContext& context) {
          recorder_.record(context.target(), context.event());
        })
        .build();
  };
  commit(source, {kUp});
  auto maker = build();
  maker.settle({.debounce = 0ms});  // correlates: makes the row
  ASSERT_EQ(row(target).names, (std::vector<std::string>{"Incremented"}));

  auto app = build();  // a fresh process's view: it has read no row yet
  commit(source, {kUp, kUp});
  auto sent = statements(*pool_);
  EXPECT_EQ(app.drain().handled, 2);
  // The claim, the one read of the row, the acknowledgement.
  EXPECT_EQ(statements(*pool_) - sent, 3u);

  const std::int64_t last = commit(source, {kUp});
  sent = statements(*pool_);
  EXPECT_EQ(app.drain().handled, 1);
  EXPECT_EQ(statements(*pool_) - sent, 2u) << "the claim and the acknowledgement, no act.query";
  EXPECT_EQ(row(target).at, last);
  EXPECT_EQ(recorder_.ids(target).size(), 4u);
}

// A dynamic target's row made by an older version of the app, with fewer
// names than this version routes to it, keeps the per-stream read: the
// events of the names the row lacks still reach their handler.
TEST_F(DrainCycleTest, ADynamicTargetsNarrowerRowKeepsThePerStreamRead) {
  const std::string source = stream();
  const std::string target = source + "-audit";
  const auto route = [source, target](const Committed& event) {
    return event.stream == source ? std::optional<Route>(Route{target}) : std::nullopt;
  };
  auto older = act::app(pool_)
                   .with(counter_)
                   .on<Incremented>("Incremented")
                   .to(route)
                   .handle("up", [](const Incremented&, ReactionContext&) {})
                   .build();
  commit(source, {kUp});
  older.settle({.debounce = 0ms});
  ASSERT_EQ(row(target).names, (std::vector<std::string>{"Incremented"}));

  auto newer = act::app(pool_)
                   .with(counter_)
                   .on<Incremented>("Incremented")
                   .to(route)
                   .handle("up", [&](const Incremented&, ReactionContext& context) {
                     recorder_.record(context.target(), context.event());
                   })
                   .on<Decremented>("Decremented")
                   .to(route)
                   .handle("down", [&](const Decremented&, ReactionContext& context) {
                     recorder_.record(context.target(), context.event());
                   })
                   .build();
  const std::vector<Committed> mine = store_->commit(source, {kDown, kUp, kDown});
  newer.settle({.debounce = 0ms});
  newer.settle({.debounce = 0ms});  // the second cycle knows the row: still the per-stream read
  const std::int64_t last = commit(source, {kDown});
  newer.settle({.debounce = 0ms});
  // The older app handled the first event; every one after it arrives once, in order.
  EXPECT_EQ(recorder_.ids(target), (std::vector<std::int64_t>{mine[0].id, mine[1].id, mine[2].id, last}));
}

}  // namespace
}  // namespace act::test
