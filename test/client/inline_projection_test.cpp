// Inline projections: the commit and the read model's writes in one
// transaction, no drain, and a rebuild that is exactly-once against
// concurrent commits.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"
#include "support/totals.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

// Each test's read model: support/totals.hpp.
class InlineProjectionTest : public DatabaseTest {
 protected:
  void SetUp() override {
    DatabaseTest::SetUp();
    prefix_ = stream("i");
    table_ = "inline_totals_" + std::to_string(++tables_);
  }

  std::string source() const { return "^" + prefix_ + "-"; }
  std::string in(const std::string& name) const { return prefix_ + "-" + name; }
  std::string target() const { return table_ + "-projection"; }

  ProjectionBuilder base() {
    return totals::kept_in(projection(target()).source(source()), table_);
  }

  // on_event runs first: a test's way to fail.
  Projection inline_projection(std::function<void(const Committed&, Sql&)> on_event = {}) {
    return totals::counting(base(), table_, std::move(on_event)).run_inline().build();
  }

  static void apply(const std::string& table, int by, const Committed& event, Sql& sql) {
    totals::apply(table, by, event, sql);
  }

  std::string sql(const std::string& query) { return database().sql(query); }
  std::int64_t applied() { return std::stoll(sql("SELECT count(*) FROM " + table_ + "_applied")); }
  std::string total_of(const std::string& name) {
    return sql("SELECT total || '/' || events FROM " + table_ + " WHERE stream = '" + in(name) + "'");
  }
  // The fold of the log: "total/events" per stream of this test, from act.query.
  std::map<std::string, std::string> folded_from_log() {
    std::map<std::string, std::pair<int, int>> sums;
    Query query;
    query.stream = source();
    query.stream_exact = false;
    query.names = std::vector<std::string>{"Incremented"};
    store_->query(query, [&](const Committed& event) {
      auto& [total, events] = sums[event.stream];
      total += event.data.at("by").get<int>();
      ++events;
    });
    std::map<std::string, std::string> folded;
    for (const auto& [name, sum] : sums) folded[name] = std::to_string(sum.first) + "/" + std::to_string(sum.second);
    return folded;
  }
  std::map<std::string, std::string> read_model() {
    std::map<std::string, std::string> rows;
    const std::string text =
        sql("SELECT coalesce(string_agg(stream || '=' || total || '/' || events, ',' ORDER BY stream), '') FROM " + table_);
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find(',', start), text.size());
      const std::string row = text.substr(start, end - start);
      const std::size_t equals = row.find('=');
      rows[row.substr(0, equals)] = row.substr(equals + 1);
      start = end + 1;
    }
    return rows;
  }

  State<Counter> counter_ = counter_state({.retries = 200});
  std::string prefix_;
  std::string table_;
  static inline int tables_ = 0;
};

TEST_F(InlineProjectionTest, TheReadModelIsWrittenWithTheCommitAndNeverDrained) {
  auto app = act::app(pool_).with(counter_).with(inline_projection()).build();
  const ActionResult done = app.do_action("increment", {in("a"), kAnn, {}}, Increment{3});
  EXPECT_EQ(total_of("a"), "3/1") << "visible as soon as do_action returns, without a drain";
  app.do_action("increment", {in("a"), kAnn, {}}, Increment{4});
  EXPECT_EQ(total_of("a"), "7/2");
  EXPECT_EQ(sql("SELECT count(*) FROM " + table_ + "_applied WHERE event_id = " + std::to_string(done.id)), "1");

  EXPECT_TRUE(subscription(target()).stream.empty()) << "an inline projection has no subscription row";
  const SettleResult settled = app.settle();
  EXPECT_EQ(settled.drained.handled, 0) << "nothing for the drain";
  EXPECT_EQ(applied(), 2) << "no second application";
}

TEST_F(InlineProjectionTest, CostsOneRoundTripMoreThanAPlainCommit) {
  auto pool = database().pool(PoolOptions{1, 30s});  // one connection: its statements are prepared once
  auto app = act::app(pool).with(counter_).with(inline_projection()).build();
  auto plain_app = act::app(pool).with(counter_).build();
  const auto round_trips_of = [&](App& acting, const std::string& name) {
    const std::uint64_t before = pool->stats().round_trips;
    acting.do_action("increment", {name, kAnn, {}}, Increment{1});
    return pool->stats().round_trips - before;
  };
  // Warm up: the first actions load the states and prepare the statements.
  round_trips_of(plain_app, in("b"));
  round_trips_of(app, in("a"));
  const std::uint64_t plain = round_trips_of(plain_app, in("b"));
  const std::uint64_t with_projection = round_trips_of(app, in("a"));
  EXPECT_EQ(plain, 1u) << "a cached state: the commit alone";
  EXPECT_EQ(with_projection, plain + 1) << "BEGIN, lock and commit together; the writes and COMMIT together";
  EXPECT_EQ(total_of("a"), "2/2");
  EXPECT_EQ(total_of("b"), "") << "the plain app's commits do not run it";
  EXPECT_EQ(pool->stats().opened, 1u) << "one connection, never dropped: nothing was left unread on it";

  // An event it does not handle never opens a transaction.
  const std::uint64_t before = pool->stats().round_trips;
  app.do_action("decrement", {in("a"), kAnn, {}}, Decrement{1});
  EXPECT_EQ(pool->stats().round_trips - before, 1u);
}

TEST_F(InlineProjectionTest, AThrowingHandlerFailsTheActionAndWritesNothing) {
  auto app = act::app(pool_)
                 .with(counter_)
                 .with(inline_projection([](const Committed& event, Sql&) {
                   if (event.data.at("by") == 13) throw std::runtime_error("unlucky number");
                 }))
                 .build();
  app.do_action("increment", {in("a"), kAnn, {}}, Increment{1});
  try {
    app.do_action("increment", {in("a"), kAnn, {}}, Increment{13});
    FAIL() << "the action should fail with the handler's error";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "unlucky number");
  }
  EXPECT_EQ(store_->version(in("a")), 0) << "the commit was rolled back with the projection";
  EXPECT_EQ(total_of("a"), "1/1");
  EXPECT_EQ(applied(), 1);

  const ActionResult next = app.do_action("increment", {in("a"), kAnn, {}}, Increment{2});
  EXPECT_EQ(pool_->stats().discarded, 0u) << "the rolled-back connection went back to the pool";
  EXPECT_EQ(next.version, 1) << "the cache did not keep the failed action's state";
  EXPECT_EQ(next.state_as<Counter>().count, 3);
  EXPECT_EQ(total_of("a"), "3/2");
}

TEST_F(InlineProjectionTest, AFailingStatementFailsTheActionAndWritesNothing) {
  auto app = act::app(pool_)
                 .with(counter_)
                 .with(inline_projection([](const Committed& event, Sql& sql) {
                   // Queued, not waited for: it fails in the round trip that carries COMMIT.
                   if (event.data.at("by") == 5) sql.exec("SELECT 1 / 0");
                 }))
                 .build();
  app.do_action("increment", {in("a"), kAnn, {}}, Increment{1});
  try {
    app.do_action("increment", {in("a"), kAnn, {}}, Increment{5});
    FAIL() << "the action should fail with the statement's error";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.sqlstate(), "22012") << error.what();
  }
  EXPECT_EQ(store_->version(in("a")), 0) << "no event was written";
  EXPECT_EQ(total_of("a"), "1/1");
  EXPECT_EQ(pool_->stats().discarded, 0u);
  app.do_action("increment", {in("a"), kAnn, {}}, Increment{2});
  EXPECT_EQ(total_of("a"), "3/2") << "the pool's connections still work";
}

TEST_F(InlineProjectionTest, OnlyItsSourceAndEventsRunIt) {
  std::atomic<int> calls{0};
  auto app = act::app(pool_)
                 .with(counter_)
                 .with(inline_projection([&](const Committed&, Sql&) { ++calls; }))
                 .build();
  app.do_action("increment", {stream("elsewhere"), kAnn, {}}, Increment{1});
  app.do_action("increment", {in("a"), kAnn, {}}, Increment{2});
  app.do_action("decrement", {in("a"), kAnn, {}}, Decrement{1});  // not an event it handles
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(applied(), 1);
  EXPECT_EQ(total_of("a"), "2/1");
}

TEST_F(InlineProjectionTest, ALiteralSourceTakesOnlyItsStream) {
  const std::string table = table_;
  auto literal = projection(target())
                     .source(in("only"))
                     .setup([table](Sql& sql) { sql.exec("CREATE TABLE IF NOT EXISTS " + table + "_applied (event_id bigint PRIMARY KEY)"); })
                     .on<Incremented>("Incremented", [table](const Incremented&, const Committed& event, Sql& sql) {
                       sql.exec("INSERT INTO " + table + "_applied VALUES ($1)", {event.id});
                     })
                     .run_inline()
                     .build();
  auto app = act::app(pool_).with(counter_).with(literal).build();
  app.do_action("increment", {in("only"), kAnn, {}}, Increment{1});
  app.do_action("increment", {in("only-not"), kAnn, {}}, Increment{1});
  EXPECT_EQ(applied(), 1);
}

TEST_F(InlineProjectionTest, ABatchHandlerGetsTheCommitsEventsAtOnce) {
  const std::string table = table_;
  std::vector<std::size_t> batch_sizes;
  auto batched = base()
                     .on("Incremented")
                     .batch([&batch_sizes, table](const std::vector<Committed>& events, Sql& sql) {
                       batch_sizes.push_back(events.size());
                       for (const Committed& event : events) apply(table, event.data.at("by").get<int>(), event, sql);
                     })
                     .run_inline()
                     .build();
  auto app = act::app(pool_).with(counter_).with(batched).build();
  app.do_action("increment_twice", {in("a"), kAnn, {}}, Increment{2});
  EXPECT_EQ(batch_sizes, std::vector<std::size_t>{2});
  EXPECT_EQ(total_of("a"), "4/2");
}

TEST_F(InlineProjectionTest, AKeyedRepeatAppliesNothingTwice) {
  auto app = act::app(pool_).with(counter_).with(inline_projection()).build();
  DoOptions keyed;
  keyed.idempotency_key = "once";
  const ActionResult first = app.do_action("increment", {in("a"), kAnn, {}}, Increment{4}, keyed);
  // The cached state makes the repeat emit the same event: act.commit answers with the first commit's rows.
  const ActionResult again = app.do_action("increment", {in("a"), kAnn, {}}, Increment{4}, keyed);
  ASSERT_EQ(again.events.size(), 1u);
  EXPECT_EQ(again.events.front().id, first.events.front().id);
  EXPECT_EQ(applied(), 1);
  EXPECT_EQ(total_of("a"), "4/1");
}

TEST_F(InlineProjectionTest, WorksBesideReactionsAndDrainedProjections) {
  std::atomic<int> reacted{0};
  const std::string drained_table = table_ + "_drained";
  auto drained = projection(target() + "-drained")
                     .source(source())
                     .setup([drained_table](Sql& sql) {
                       sql.exec("CREATE TABLE IF NOT EXISTS " + drained_table + " (event_id bigint PRIMARY KEY)");
                     })
                     .on<Incremented>("Incremented", [drained_table](const Incremented&, const Committed& event, Sql& sql) {
                       sql.exec("INSERT INTO " + drained_table + " VALUES ($1)", {event.id});
                     })
                     .build();
  auto app = act::app(pool_)
                 .with(counter_)
                 .with(inline_projection())
                 .with(drained)
                 .on<Incremented>("Incremented")
                 .to(Route{target() + "-reaction", source()})
                 .handle("count", [&](const Incremented&, ReactionContext&) { ++reacted; })
                 .build();
  for (int by = 1; by <= 3; ++by) app.do_action("increment", {in("a"), kAnn, {}}, Increment{by});
  EXPECT_EQ(applied(), 3) << "inline: before any drain";
  const SettleResult settled = app.settle();
  EXPECT_EQ(settled.drained.failed, 0);
  EXPECT_EQ(reacted, 3);
  EXPECT_EQ(sql("SELECT count(*) FROM " + drained_table), "3");
  EXPECT_FALSE(subscription(target() + "-drained").stream.empty());
  EXPECT_TRUE(subscription(target()).stream.empty());
  EXPECT_EQ(applied(), 3);
}

TEST_F(InlineProjectionTest, CommitsThatBypassTheAppAreRepairedByRebuild) {
  auto projection = inline_projection();
  auto app = act::app(pool_).with(counter_).with(projection).build();
  app.do_action("increment", {in("a"), kAnn, {}}, Increment{1});
  store_->commit(in("a"), {Message{"Incremented", {{"by", 10}}, std::nullopt}});  // not through the app
  EXPECT_EQ(total_of("a"), "1/1") << "a plain commit does not run inline projections";

  std::vector<RebuildProgress> reports;
  const RebuildProgress done = app.rebuild(projection, [&](const RebuildProgress& progress) { reports.push_back(progress); });
  EXPECT_FALSE(done.blocked);
  EXPECT_EQ(done.applied, 2);
  EXPECT_EQ(done.at, done.head);
  EXPECT_EQ(done.head, std::stoll(sql("SELECT act.max_event_id()")));
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(total_of("a"), "11/2");
  EXPECT_EQ(applied(), 2);
}

TEST_F(InlineProjectionTest, ARebuildWhoseHandlerFailsLeavesTheReadModelAsItWas) {
  std::atomic<bool> refuse{false};
  auto projection = inline_projection([&](const Committed&, Sql&) {
    if (refuse) throw std::runtime_error("refused during rebuild");
  });
  auto app = act::app(pool_).with(counter_).with(projection).build();
  app.do_action("increment", {in("a"), kAnn, {}}, Increment{2});
  app.do_action("increment", {in("b"), kAnn, {}}, Increment{3});
  refuse = true;
  const RebuildProgress done = app.rebuild(projection);
  EXPECT_TRUE(done.blocked);
  EXPECT_EQ(done.error, "refused during rebuild");
  EXPECT_EQ(done.applied, 0);
  EXPECT_EQ(total_of("a"), "2/1") << "the truncate was rolled back too";
  EXPECT_EQ(total_of("b"), "3/1");
}

// Writers commit through the app while rebuilds run: every event ends up
// in the read model once, whichever side of a rebuild it landed on.
TEST_F(InlineProjectionTest, RebuildIsExactlyOnceAgainstConcurrentCommits) {
  constexpr int kWriters = 4;
  auto pool = database().pool(PoolOptions{kWriters + 2, 30s});
  auto projection = inline_projection();
  auto app = act::app(pool).with(counter_).with(projection).build();
  app.do_action("increment", {in("shared"), kAnn, {}}, Increment{1});  // sets the read model up

  std::atomic<bool> stop{false};
  std::atomic<int> committed{1};
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      const Actor actor{"writer-" + std::to_string(w), "writer"};
      for (int i = 0; !stop; ++i) {
        // Streams of its own, and one all writers share (conflicts roll the projection back too).
        const std::string name = i % 3 == 0 ? in("shared") : in("w" + std::to_string(w) + "-" + std::to_string(i % 2));
        try {
          app.do_action("increment", {name, actor, {}}, Increment{1 + i % 5});
          ++committed;
        } catch (const std::exception&) {
          ++failures;
        }
      }
    });
  }
  int rebuilds = 0;
  int overlapped = 0;  // rebuilds during which writers committed: what the test is about
  std::int64_t rebuilt_events = 0;
  for (; rebuilds < 3; ++rebuilds) {
    std::this_thread::sleep_for(150ms);
    const int before = committed.load();
    const RebuildProgress done = app.rebuild(projection);
    if (committed.load() > before) ++overlapped;
    EXPECT_FALSE(done.blocked) << done.error.value_or("");
    rebuilt_events = done.applied;
  }
  EXPECT_GT(overlapped, 0) << "no commit landed while a rebuild ran";
  std::this_thread::sleep_for(100ms);
  stop = true;
  for (std::thread& writer : writers) writer.join();

  EXPECT_EQ(failures, 0);
  EXPECT_GT(rebuilt_events, 0);
  EXPECT_EQ(applied(), committed.load()) << "each committed event applied once";
  const auto folded = folded_from_log();
  EXPECT_EQ(folded.size(), 1u + 2 * kWriters);
  EXPECT_EQ(read_model(), folded) << "the read model is the fold of the log";
}

TEST(InlineProjectionBuild, RefusesWhatHasNoMeaningInline) {
  const auto handled = [] {
    return projection("p").on<Incremented>("Incremented", [](const Incremented&, const Committed&, Sql&) {});
  };
  EXPECT_THROW(projection("p").run_inline().build(), std::invalid_argument) << "no handler";
  EXPECT_THROW(handled().lane("slow").run_inline().build(), std::invalid_argument);
  EXPECT_THROW(handled().run_inline().priority(5).build(), std::invalid_argument);
  EXPECT_THROW(handled().options(ReactionOptions{}).run_inline().build(), std::invalid_argument);
  EXPECT_NO_THROW(handled().source("^orders-").run_inline().build());
  try {
    handled().lane("slow").run_inline().build();
    FAIL() << "an inline projection with a lane was built";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("inline projection p: a lane"), std::string::npos) << error.what();
  }
}

TEST_F(InlineProjectionTest, ATargetServedTwiceIsRefusedAtBuild) {
  auto inline_one = inline_projection();
  auto drained = projection(target()).on<Incremented>("Incremented", [](const Incremented&, const Committed&, Sql&) {}).build();
  EXPECT_THROW(act::app(pool_).with(counter_).with(inline_one).with(drained).build(), std::invalid_argument);
}

}  // namespace
}  // namespace act::test
