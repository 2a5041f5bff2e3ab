// Projection versions: a later version builds beside the current one, from
// the start of the log, and becomes current in one transaction; side
// effects run only for the current version; the old one stays until dropped.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"
#include "support/totals.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

// The ids each version's side effect saw.
struct Effects {
  std::mutex mutex;
  std::multiset<std::int64_t> ids;
  void add(std::int64_t id) {
    const std::lock_guard lock(mutex);
    ids.insert(id);
  }
  std::size_t size() {
    const std::lock_guard lock(mutex);
    return ids.size();
  }
};

// Version 1 keeps a total per stream; version 2 the double of it, so a
// reader can tell which version a view shows. Both write the unqualified
// table name: version 2's schema holds its own.
class ProjectionVersionTest : public DatabaseTest {
 protected:
  void SetUp() override {
    DatabaseTest::SetUp();
    prefix_ = stream("v");
    table_ = "versioned_" + std::to_string(++tables_);
  }

  std::string in(const std::string& name) const { return prefix_ + "-" + name; }
  std::string name() const { return table_ + "-projection"; }

  Projection version(std::int32_t number, Effects* effects = nullptr,
                     std::function<void(const Committed&)> on_event = {}, const std::string& lane = "default") {
    const std::string table = table_;
    ProjectionBuilder builder =
        totals::kept_in(projection(name()).source("^" + prefix_ + "-").lane(lane), table)
            .on<Incremented>("Incremented",
                             [table, number, on_event](const Incremented& e, const Committed& event, Sql& sql) {
                               if (on_event) on_event(event);
                               totals::apply(table, e.by * number, event, sql);
                             });
    if (number != 1) builder = std::move(builder).version(number);
    if (effects != nullptr) {
      builder = std::move(builder).side_effect<Incremented>(
          "Incremented", [effects](const Incremented&, ReactionContext& context) { effects->add(context.event().id); });
    }
    return std::move(builder).build();
  }

  std::int64_t commit(App& app, int count, const std::string& on = "a") {
    std::int64_t last = -1;
    for (int i = 0; i < count; ++i) last = app.do_action("increment", {in(on), kAnn, {}}, Increment{1}).id;
    return last;
  }

  std::string sql(const std::string& query) { return database().sql(query); }
  // What the application reads: through the reading schema.
  std::string read(const std::string& relation_suffix = "") {
    return sql("SELECT coalesce(sum(total), 0) || '/' || coalesce(sum(events), 0) FROM " +
               projection_reading_schema(name()) + "." + table_ + relation_suffix);
  }
  std::string in_schema(const std::string& schema) {
    return sql("SELECT coalesce(sum(total), 0) || '/' || coalesce(sum(events), 0) FROM " + schema + "." + table_);
  }

  State<Counter> counter_ = counter_state();
  std::string prefix_;
  std::string table_;
  static inline int tables_ = 0;
};

TEST_F(ProjectionVersionTest, NamesItsSubscriptionAndSchemaByVersion) {
  EXPECT_EQ(version(1).target(), name());
  EXPECT_TRUE(version(1).schema().empty());
  EXPECT_EQ(version(2).target(), name() + "@v2");
  EXPECT_EQ(version(2).schema(), table_ + "_projection_v2");
  EXPECT_EQ(version(2).reads_through(), table_ + "_projection");
  EXPECT_THROW((void)projection("p").version(0), std::invalid_argument);
  EXPECT_THROW((void)projection("p")
                   .on<Incremented>("Incremented", [](const Incremented&, const Committed&, Sql&) {})
                   .version(2)
                   .run_inline()
                   .build(),
               std::invalid_argument);
  EXPECT_THROW((void)projection("p")
                   .on<Incremented>("Incremented", [](const Incremented&, const Committed&, Sql&) {})
                   .side_effect<Incremented>("Other", [](const Incremented&, ReactionContext&) {})
                   .build(),
               std::invalid_argument);
}

TEST_F(ProjectionVersionTest, BuildsBesideTheCurrentVersionWhichKeepsServing) {
  auto old_app = act::app(pool_).with(counter_).with(version(1)).build();
  old_app.drain();
  commit(old_app, 3);
  old_app.settle();
  ASSERT_EQ(in_schema("public"), "3/3");

  auto app = act::app(pool_).with(counter_).with(version(1)).with(version(2)).build();
  EXPECT_EQ(app.current_projection_version(name()), 1);
  EXPECT_EQ(app.projection_lag(version(2)).events, 3);  // nothing applied: it starts at the log's start
  commit(app, 2);
  app.settle();
  EXPECT_EQ(in_schema("public"), "5/5");                    // version 1 keeps being fed
  EXPECT_EQ(in_schema(table_ + "_projection_v2"), "10/5");  // version 2 replayed the history, in its schema
  EXPECT_EQ(read(), "5/5");                                 // the application still reads version 1
  const ProjectionLag lag = app.projection_lag(version(2));
  EXPECT_EQ(lag.events, 0);
  EXPECT_FALSE(lag.current);
}

TEST_F(ProjectionVersionTest, SwitchMovesTheReadingNameAndKeepsTheOldVersion) {
  auto app = act::app(pool_).with(counter_).with(version(1)).with(version(2)).build();
  app.drain();
  commit(app, 4);
  const SwitchResult switched = app.switch_projection(version(2));
  ASSERT_TRUE(switched.switched);
  EXPECT_EQ(switched.from, 1);
  EXPECT_EQ(switched.to, 2);
  EXPECT_EQ(switched.lag, 0);
  EXPECT_EQ(app.current_projection_version(name()), 2);
  EXPECT_EQ(read(), "8/4");
  EXPECT_TRUE(app.projection_lag(version(2)).current);

  // The old version is kept, and fed while the app declares it.
  commit(app, 1);
  app.settle();
  EXPECT_EQ(in_schema("public"), "5/5");
  EXPECT_EQ(read(), "10/5");
  EXPECT_THROW(app.drop_projection_version(name(), 1), std::logic_error);  // this app still drains it

  auto new_app = act::app(pool_).with(counter_).with(version(2)).build();
  EXPECT_THROW(new_app.drop_projection_version(name(), 2), std::logic_error);  // drains it, and it is current
  new_app.drop_projection_version(name(), 1);
  EXPECT_EQ(sql("SELECT to_regclass('public." + table_ + "') IS NULL"), "t");
  EXPECT_EQ(sql("SELECT to_regclass('public." + table_ + "_applied') IS NULL"), "t");
  EXPECT_TRUE(subscription(name()).deferred_at.has_value());  // never claimed again
  const std::int64_t stopped_at = subscription(name()).at;
  commit(new_app, 1);
  new_app.settle();
  app.settle();  // an app that still declares version 1 finds nothing to claim
  EXPECT_EQ(read(), "12/6");
  EXPECT_EQ(subscription(name()).at, stopped_at);
}

TEST_F(ProjectionVersionTest, RefusesToSwitchFurtherBehindThanAllowed) {
  const Lane slow{"slow", 30s, 1, 1};
  auto app = act::app(pool_).with(counter_).with(version(1)).with(version(2, nullptr, {}, "slow")).lane(slow).build();
  app.drain();
  commit(app, 3);
  // Another process holds version 2's lease, so this one cannot drain it.
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    try {
      auto holder = act::app(database().pool())
                        .with(counter_)
                        .with(version(
                            2, nullptr, [](const Committed&) { ::raise(SIGKILL); }, "slow"))
                        .lane(slow)
                        .build();
      holder.drain();
    } catch (...) {
    }
    ::_exit(3);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  app.drain();  // version 1's lane
  const SwitchResult refused = app.switch_projection(version(2), SwitchOptions{.max_lag = 1, .attempts = 2});
  EXPECT_FALSE(refused.switched);
  EXPECT_EQ(refused.lag, 3);
  EXPECT_EQ(app.current_projection_version(name()), 1);
  EXPECT_EQ(read(), "3/3");
}

TEST_F(ProjectionVersionTest, SideEffectsRunOnlyForTheCurrentVersionOncePerEvent) {
  Effects first;
  Effects second;
  auto old_app = act::app(pool_).with(counter_).with(version(1, &first)).build();
  old_app.drain();
  const std::int64_t before = commit(old_app, 3);
  old_app.settle();
  ASSERT_EQ(first.size(), 3u);

  auto app = act::app(pool_).with(counter_).with(version(1, &first)).with(version(2, &second)).build();
  commit(app, 2);
  app.settle();
  EXPECT_EQ(first.size(), 5u);
  EXPECT_EQ(second.size(), 0u);  // caught up, but not current: no side effect
  EXPECT_EQ(in_schema(table_ + "_projection_v2"), "10/5");

  ASSERT_TRUE(app.switch_projection(version(2)).switched);
  commit(app, 4);
  app.settle();
  EXPECT_EQ(first.size(), 5u);   // not current any more
  EXPECT_EQ(second.size(), 4u);  // live now
  std::set<std::int64_t> all(first.ids.begin(), first.ids.end());
  all.insert(second.ids.begin(), second.ids.end());
  EXPECT_EQ(all.size(), first.size() + second.size());  // no event's side effect ran twice
  ASSERT_FALSE(second.ids.empty());
  EXPECT_GT(*second.ids.begin(), before);
}

TEST_F(ProjectionVersionTest, SwitchRunsTheSideEffectsTheOldVersionHadNotReached) {
  Effects first;
  Effects second;
  const Lane held{"held", 30s};
  // Version 1 in a lane this app leaves alone: it falls behind.
  auto app =
      act::app(pool_).with(counter_).with(version(1, &first, {}, "held")).with(version(2, &second)).lane(held).build();
  app.drain();
  const std::int64_t last = commit(app, 3);
  ASSERT_EQ(app.drain().handled, 6);  // one cycle: both lanes
  commit(app, 2);
  // version 2 drains alone
  const SwitchResult switched = app.switch_projection(version(2));
  ASSERT_TRUE(switched.switched);
  EXPECT_EQ(first.size(), 3u);
  EXPECT_EQ(switched.side_effects_run, 2);  // the two events version 1 had not reached
  EXPECT_EQ(second.size(), 2u);
  ASSERT_FALSE(second.ids.empty());
  EXPECT_GT(*second.ids.begin(), last);
}

// The Done-when of versions: whatever moment a reader picks, the read model
// behind the reading name is exactly the events up to the watermark of the
// version the same snapshot records as current; so it is behind the log by
// exactly that version's lag (what projection_lag reports), and a switch
// shows either version whole, never a mix or nothing.
TEST_F(ProjectionVersionTest, ReadersNeverSeeAHalfSwitchUnderConcurrentCommits) {
  auto app = act::app(pool_).with(counter_).with(version(1)).with(version(2)).build();
  app.drain();
  commit(app, 20);
  app.settle();

  std::atomic<bool> done{false};
  std::thread committer([&] {
    auto writer = act::app(database().pool()).with(counter_).build();
    for (int i = 0; !done; ++i) writer.do_action("increment", {in(i % 2 ? "a" : "b"), kAnn, {}}, Increment{1});
  });
  std::thread drainer([&] {
    auto worker = act::app(database().pool()).with(counter_).with(version(1)).with(version(2)).build();
    while (!done) worker.drain();
  });
  std::atomic<int> reads{0};
  std::atomic<int> wrong{0};
  std::string first_wrong;
  std::thread reader([&] {
    const std::string reading = projection_reading_schema(name()) + "." + table_;
    // One statement: one snapshot, taken once the views it reads are locked.
    // The tables themselves, not act.query_streams, which reads in a snapshot of its own.
    const std::string check =
        "WITH v AS (SELECT current FROM act_projection_versions WHERE name = '" + name() +
        "'), "
        "w AS (SELECT s.at FROM act.subscriptions s WHERE s.stream = "
        "CASE WHEN (SELECT current FROM v) = 1 THEN '" +
        name() + "' ELSE '" + name() +
        "@v2' END), "
        "e AS (SELECT count(*) FILTER (WHERE id <= (SELECT at FROM w)) AS upto FROM act.events "
        "      WHERE stream LIKE '" +
        prefix_ +
        "-%' AND name = 'Incremented'), "
        "m AS (SELECT coalesce(sum(total), 0) AS total, coalesce(sum(events), 0) AS events FROM " +
        reading +
        ") "
        "SELECT (SELECT current FROM v) || ' ' || m.total || ' ' || m.events || ' ' || e.upto FROM m, e";
    while (!done) {
      std::string seen;
      try {
        seen = sql(check);
      } catch (const std::exception& error) {
        seen = std::string("error: ") + error.what();
      }
      std::istringstream fields(seen);
      long long current = 0, total = 0, events = 0, upto = 0;
      fields >> current >> total >> events >> upto;
      if (!fields || total != current * events || events != upto) {
        if (wrong++ == 0) first_wrong = seen;
      }
      ++reads;
    }
  });
  ASSERT_TRUE(eventually([&] { return reads > 20; }, 30s));
  const SwitchResult switched = app.switch_projection(version(2), SwitchOptions{.max_lag = 50, .attempts = 100});
  const int reads_at_switch = reads;
  ASSERT_TRUE(eventually([&] { return reads > reads_at_switch + 20; }, 30s));
  done = true;
  committer.join();
  drainer.join();
  reader.join();
  EXPECT_TRUE(switched.switched);
  EXPECT_LE(switched.lag, 50);
  EXPECT_EQ(wrong, 0) << "first wrong read: " << first_wrong;
  EXPECT_EQ(app.current_projection_version(name()), 2);
}

TEST_F(ProjectionVersionTest, AKilledWorkerDuringCatchUpAppliesNoEventTwiceAndSkipsNone) {
  const Lane small{"small", 300ms, 1, 3};
  auto app = act::app(pool_).with(counter_).with(version(1)).with(version(2, nullptr, {}, "small")).lane(small).build();
  app.drain();
  const std::int64_t last = commit(app, 12);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // A worker process of its own, killed in its third transaction of version 2's catch-up.
    try {
      int calls = 0;
      auto doomed = act::app(database().pool())
                        .with(counter_)
                        .with(version(
                            2, nullptr,
                            [&calls](const Committed&) {
                              if (++calls == 8) ::raise(SIGKILL);
                            },
                            "small"))
                        .lane(small)
                        .build();
      doomed.settle();
    } catch (...) {
    }
    ::_exit(3);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
  const std::string applied = "SELECT count(*) FROM " + table_ + "_projection_v2." + table_ + "_applied";
  ASSERT_TRUE(eventually([&] { return sql(applied) == "6"; }));
  // The watermark is the last event of the writes that committed.
  EXPECT_EQ(std::to_string(subscription(name() + "@v2").at),
            sql("SELECT max(event_id) FROM " + table_ + "_projection_v2." + table_ + "_applied"));

  // The lease runs out; this process finishes the catch-up: each event once
  // (the applied table's key refuses a second), none skipped.
  ASSERT_TRUE(app.switch_projection(version(2)).switched);
  EXPECT_EQ(sql(applied), "12");
  EXPECT_EQ(subscription(name() + "@v2").at, last);
  EXPECT_EQ(read(), "24/12");
}

}  // namespace
}  // namespace act::test
