// Projections: the read model's writes and the watermark commit together, so
// failures, killed connections and killed processes apply every event once.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"
#include "support/totals.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

const ReactionOptions kQuickRetries{5, true, Backoff{1ms, 1ms, false}};

// Each test's read model: support/totals.hpp.
class ProjectionTest : public DatabaseTest {
 protected:
  void SetUp() override {
    DatabaseTest::SetUp();
    prefix_ = stream("p");
    table_ = "totals_" + std::to_string(++tables_);
  }

  std::string source() const { return "^" + prefix_ + "-"; }
  std::string in(const std::string& name) const { return prefix_ + "-" + name; }

  ProjectionBuilder base(const std::string& lane = std::string(kDefaultLane)) {
    const std::string table = table_;
    return totals::kept_in(projection(table + "-projection").source(source()).lane(lane).options(kQuickRetries), table);
  }

  // The per-event form; on_event runs first (a test's way to fail or to kill).
  Projection per_event(std::function<void(const Committed&, Sql&)> on_event = {}) {
    return totals::counting(base(), table_, std::move(on_event)).build();
  }

  static void apply(const std::string& table, int by, const Committed& event, Sql& sql) {
    totals::apply(table, by, event, sql);
  }

  // Commits increments by 1..per_stream on each stream; returns the last event id.
  std::int64_t commit(App& app, const std::vector<std::string>& names, int per_stream) {
    std::int64_t last = -1;
    for (int by = 1; by <= per_stream; ++by) {
      for (const std::string& name : names) last = app.do_action("increment", {in(name), kAnn, {}}, Increment{by}).id;
    }
    return last;
  }

  std::string sql(const std::string& query) { return database().sql(query); }
  std::int64_t applied() { return std::stoll(sql("SELECT count(*) FROM " + table_ + "_applied")); }
  std::string target() const { return table_ + "-projection"; }

  State<Counter> counter_ = counter_state();
  std::string prefix_;
  std::string table_;
  static inline int tables_ = 0;
};

TEST_F(ProjectionTest, WritesAndTheirWatermarkCommitTogether) {
  auto app = act::app(pool_).with(counter_).with(per_event()).build();
  app.drain();  // sets the read model up
  const std::int64_t last = commit(app, {"a", "b", "c"}, 4);
  app.settle();
  for (const char* name : {"a", "b", "c"}) {
    EXPECT_EQ(sql("SELECT total || '/' || events FROM " + table_ + " WHERE stream = '" + in(name) + "'"), "10/4");
  }
  EXPECT_EQ(applied(), 12);
  EXPECT_EQ(subscription(target()).at, last);
}

TEST_F(ProjectionTest, APageTravelsWithItsAcknowledgementThenCommits) {
  auto pool = database().pool(PoolOptions{1, 30s});  // one connection: its statements are prepared once
  auto app = act::app(pool).with(counter_).with(per_event()).build();
  app.drain();  // sets the read model up
  commit(app, {"a"}, 1);
  app.drain();  // prepares the statements
  const std::int64_t last = commit(app, {"a", "b"}, 3);

  const std::uint64_t before = pool->stats().round_trips;
  EXPECT_EQ(app.drain().handled, 6);
  // The claim that brings the page; BEGIN, the page's statements and the
  // acknowledgement; COMMIT.
  EXPECT_EQ(pool->stats().round_trips - before, 3u);
  EXPECT_EQ(applied(), 7);
  EXPECT_EQ(subscription(target()).at, last);
  EXPECT_FALSE(subscription(target()).leased_by.has_value());
}

TEST_F(ProjectionTest, ReadsOnlyItsOwnEventsBesideOtherReactions) {
  std::atomic<int> reacted{0};
  auto app = act::app(pool_)
                 .with(counter_)
                 .with(per_event())
                 .on<Decremented>("Decremented")  // a dynamic reaction on another event
                 .handle("count", [&](const Decremented&, ReactionContext&) { ++reacted; })
                 .build();
  app.drain();
  commit(app, {"a"}, 2);
  app.do_action("decrement", {in("a"), kAnn, {}}, Decrement{1});
  commit(app, {"a"}, 1);
  const SettleResult settled = app.settle();
  EXPECT_EQ(settled.drained.failed, 0);
  EXPECT_EQ(applied(), 3);
  EXPECT_EQ(reacted, 1);
  EXPECT_EQ(sql("SELECT total FROM " + table_), "4");
}

std::vector<std::int64_t> ids_in(Store& store, const std::string& stream) {
  std::vector<std::int64_t> ids;
  Query query;
  query.stream = stream;
  store.query(query, [&](const Committed& event) { ids.push_back(event.id); });
  return ids;
}

// Per-event handlers' statements are pipelined: a failure surfaces after
// the handler returned, and still fails the event whose statement it was.
TEST_F(ProjectionTest, APipelinedStatementThatFailsFailsItsOwnEvent) {
  auto app = act::app(pool_).with(counter_).with(per_event()).build();
  app.drain();
  commit(app, {"a"}, 6);
  const std::vector<std::int64_t> ids = ids_in(*store_, in("a"));
  ASSERT_EQ(ids.size(), 6u);
  sql("INSERT INTO " + table_ + "_applied VALUES (" + std::to_string(ids[3]) + ")");  // event 3's insert will fail
  const DrainResult drained = app.drain();
  EXPECT_EQ(drained.failed, 1);
  ASSERT_FALSE(drained.failures.empty());
  EXPECT_EQ(drained.failures.front().event_id, ids[3]);
  EXPECT_EQ(drained.handled, 3) << "the events before it are kept";
  EXPECT_EQ(applied(), 4) << "each of them once, beside the planted row";
  EXPECT_EQ(sql("SELECT total FROM " + table_), "6");
  EXPECT_EQ(subscription(target()).at, ids[2]);
}

// The statements were sent (a handler read the read model through them),
// then the transaction failed: none of it is visible, the watermark stays.
TEST_F(ProjectionTest, APipelinedReplayThatFailsMidwayLeavesNothing) {
  std::vector<std::int64_t> ids;
  std::atomic<int> first_seen{0};
  std::string seen_inside;
  const std::string table = table_;
  auto app = act::app(pool_)
                 .with(counter_)
                 .with(per_event([&](const Committed& event, Sql& sql) {
                   if (event.id == ids.at(0) && ++first_seen == 2) throw std::runtime_error("the prefix fails too");
                   if (event.id == ids.at(4)) {
                     seen_inside = sql.exec("SELECT count(*) FROM " + table + "_applied").front().text(0);
                     throw std::runtime_error("fails at event 4");
                   }
                 }))
                 .build();
  app.drain();
  commit(app, {"a"}, 6);
  ids = ids_in(*store_, in("a"));
  const std::int64_t before = subscription(target()).at;
  const DrainResult drained = app.drain();
  EXPECT_EQ(seen_inside, "4") << "the first four events' statements had reached the server";
  EXPECT_EQ(drained.failed, 1);
  EXPECT_EQ(drained.handled, 0);
  EXPECT_EQ(applied(), 0) << "nothing of the batch is visible";
  EXPECT_EQ(sql("SELECT count(*) FROM " + table_), "0");
  EXPECT_EQ(subscription(target()).at, before) << "the watermark is unchanged";
}

TEST_F(ProjectionTest, AFailingBatchRollsBackEntirely) {
  std::atomic<int> calls{0};
  const std::string table = table_;
  auto batched = base()
                     .on("Incremented")
                     .batch([&calls, table](const std::vector<Committed>& events, Sql& sql) {
                       for (const Committed& event : events) apply(table, event.data.at("by").get<int>(), event, sql);
                       if (++calls == 1) throw std::runtime_error("disk full");
                     })
                     .build();
  auto app = act::app(pool_).with(counter_).with(batched).build();
  app.drain();
  const std::int64_t last = commit(app, {"a", "b"}, 3);
  const DrainResult first = app.drain();
  EXPECT_EQ(first.failed, 1);
  EXPECT_EQ(first.handled, 0);
  EXPECT_EQ(applied(), 0) << "nothing of the failed batch stays";
  EXPECT_EQ(subscription(target()).at, -1);

  ASSERT_TRUE(eventually([&] { return app.drain().handled == 6; }));
  EXPECT_EQ(calls, 2) << "one failure, one success";
  EXPECT_EQ(applied(), 6);
  EXPECT_EQ(subscription(target()).at, last);
}

TEST_F(ProjectionTest, AFailingEventKeepsTheEventsBeforeIt) {
  std::atomic<bool> failed_once{false};
  auto app = act::app(pool_)
                 .with(counter_)
                 .with(per_event([&](const Committed& event, Sql&) {
                   if (event.data.at("by") == 3 && !failed_once.exchange(true)) throw std::runtime_error("flaky");
                 }))
                 .build();
  app.drain();
  const std::int64_t last = commit(app, {"a"}, 5);
  const DrainResult first = app.drain();
  EXPECT_EQ(first.handled, 2);
  EXPECT_EQ(first.failed, 1);
  EXPECT_EQ(applied(), 2);
  EXPECT_EQ(sql("SELECT total FROM " + table_), "3");
  EXPECT_EQ(subscription(target()).at, last - 3) << "the watermark stops before the failing event";

  app.settle();
  EXPECT_EQ(applied(), 5);
  EXPECT_EQ(sql("SELECT total FROM " + table_), "15");
}

// The events before a failing one are kept without giving the failing event
// a fresh budget: max_retries = 2 means three calls of its handler, then blocked.
TEST_F(ProjectionTest, AFailureAfterProgressSpendsTheBudgetOnce) {
  std::atomic<int> attempts{0};
  std::vector<ReactionFailure> failures;
  auto fragile = totals::counting(totals::kept_in(act::projection(table_ + "-projection")
                                                      .source(source())
                                                      .options(ReactionOptions{2, true, Backoff{1ms, 1ms, false}}),
                                                  table_),
                                  table_,
                                  [&](const Committed& event, Sql&) {
                                    if (event.data.at("by") == 3) {
                                      ++attempts;
                                      throw std::runtime_error("broken");
                                    }
                                  })
                     .build();
  auto app = act::app(pool_)
                 .with(counter_)
                 .with(fragile)
                 .on_failure([&](const ReactionFailure& failure) { failures.push_back(failure); })
                 .build();
  app.drain();
  const std::int64_t last = commit(app, {"a"}, 4);
  ASSERT_TRUE(eventually([&] {
    app.drain();
    return subscription(target()).blocked;
  }));
  EXPECT_EQ(attempts, 3) << "the first attempt and max_retries = 2 more";
  ASSERT_EQ(failures.size(), 3u);
  for (std::size_t i = 0; i < failures.size(); ++i) {
    EXPECT_EQ(failures[i].retry, static_cast<std::int32_t>(i)) << "attempt " << i + 1;
    EXPECT_EQ(failures[i].blocked, i == 2);
  }
  EXPECT_EQ(applied(), 2) << "the events before it, applied once";
  EXPECT_EQ(subscription(target()).at, last - 2) << "the watermark stops before the failing event";
  EXPECT_EQ(subscription(target()).error, "broken");
}

TEST_F(ProjectionTest, RebuildReplaysFromTheFirstEventAndReportsProgress) {
  auto projection = per_event();
  auto app = act::app(pool_).with(counter_).with(projection).build();
  app.drain();
  const std::int64_t last = commit(app, {"a", "b"}, 3);
  app.settle();
  sql("UPDATE " + table_ + " SET total = -1");  // a read model gone wrong

  std::vector<RebuildProgress> reports;
  const RebuildProgress done =
      app.rebuild(projection, [&](const RebuildProgress& progress) { reports.push_back(progress); });
  EXPECT_EQ(done.at, last);
  EXPECT_EQ(done.head, last);
  EXPECT_EQ(done.applied, 6);
  EXPECT_FALSE(done.blocked);
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports.back().at, last);
  EXPECT_EQ(sql("SELECT string_agg(total::text, ',' ORDER BY stream) FROM " + table_), "6,6");
  EXPECT_EQ(applied(), 6);
}

TEST_F(ProjectionTest, AConnectionKilledMidTransactionAppliesNothingTwice) {
  std::atomic<bool> killed{false};
  auto app = act::app(pool_)
                 .with(counter_)
                 .with(per_event([&](const Committed& event, Sql& sql) {
                   if (event.data.at("by") != 2 || killed.exchange(true)) return;
                   totals::kill_mid_transaction(table_, sql, database());
                 }))
                 .build();
  app.drain();
  const std::int64_t last = commit(app, {"a", "b"}, 3);
  const DrainResult first = app.drain();
  EXPECT_EQ(first.failed, 1);
  EXPECT_EQ(first.handled, 2) << "the events before the killed one were applied again, in a new transaction";
  ASSERT_TRUE(killed);
  app.settle();
  EXPECT_EQ(applied(), 6) << "every event once; the killed transaction's row is gone";
  EXPECT_EQ(sql("SELECT count(*) FROM " + table_ + "_applied WHERE event_id = -1"), "0");
  EXPECT_EQ(sql("SELECT string_agg(total::text, ',' ORDER BY stream) FROM " + table_), "6,6");
  EXPECT_EQ(subscription(target()).at, last);
}

TEST_F(ProjectionTest, AWorkerKilledMidBatchLeavesNoTrace) {
  const std::string table = table_;
  const auto batched = [&](bool crash) {
    return base("crash")
        .on("Incremented")
        .batch([table, crash](const std::vector<Committed>& events, Sql& sql) {
          for (const Committed& event : events) apply(table, event.data.at("by").get<int>(), event, sql);
          if (crash) ::raise(SIGKILL);  // after the writes, before the acknowledgement
        })
        .build();
  };
  const Lane crash_lane{"crash", 300ms};
  auto app = act::app(pool_).with(counter_).with(batched(false)).lane(crash_lane).build();
  app.drain();  // registers the target and the tables before anything runs
  const std::int64_t last = commit(app, {"a", "b", "c"}, 4);

  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // A worker process of its own: connections of its own, killed mid-batch.
    try {
      auto doomed = act::app(database().pool()).with(counter_).with(batched(true)).lane(crash_lane).build();
      doomed.drain();
    } catch (...) {
    }
    ::_exit(3);  // only reached if it did not die
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  // The server notices the dead client and rolls its transaction back.
  ASSERT_TRUE(eventually([&] { return applied() == 0 && subscription(target()).leased_by.has_value(); }));
  EXPECT_EQ(subscription(target()).at, -1);

  // Once the dead worker's lease runs out, another applies the events once.
  ASSERT_TRUE(eventually([&] { return app.drain().handled == 12; }));
  EXPECT_EQ(applied(), 12);
  EXPECT_EQ(subscription(target()).at, last);
}

}  // namespace
}  // namespace act::test
