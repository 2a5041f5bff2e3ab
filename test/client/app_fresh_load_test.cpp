// Fresh reads across processes: load(..., LoadOptions{.fresh = true}) reads
// past the cached position, handlers load fresh by default, and a started
// app drops a cached state a notified commit left behind. Two apps on one
// database stand for two processes (each has its own cache).
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class FreshLoadTest : public CounterAppTest {
 protected:
  void SetUp() override {
    CounterAppTest::SetUp();
    other_ = std::make_unique<App>(app(database().pool()).with(counter_).build());
  }

  // An app whose reaction to s's increments runs look (its cache is its own).
  App watcher(const std::string& s, std::function<void(ReactionContext&)> look) {
    return app(database().pool())
        .with(counter_)
        .on<Incremented>("Incremented")
        .to(Route{"watch-" + s, s})
        .handle("look", [look = std::move(look)](const Incremented&, ReactionContext& context) { look(context); })
        .build();
  }

  // Another process's app: its commits never pass through app_'s cache.
  std::unique_ptr<App> other_;
};

TEST_F(FreshLoadTest, AFreshLoadReadsPastTheCachedPosition) {
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  other_->do_action("increment", {s, kAnn, {}}, Increment{5});

  const auto cached = app_->load(counter_, s);
  EXPECT_TRUE(cached.cache_hit);
  EXPECT_EQ(cached.state.count, 1) << "a plain load trusts the cache, behind the other process";

  const std::uint64_t before = statements(*pool_);
  const auto fresh = app_->load(counter_, s, LoadOptions{.fresh = true});
  EXPECT_EQ(fresh.state.count, 6);
  EXPECT_EQ(fresh.version, 1);
  EXPECT_TRUE(fresh.cache_hit) << "it starts from the cache";
  EXPECT_EQ(fresh.replayed, 1) << "and reads only the event after it";
  EXPECT_EQ(statements(*pool_) - before, 1u) << "in one read";

  const auto after = app_->load(counter_, s);
  EXPECT_EQ(after.state.count, 6) << "the cache holds the caught-up state";
  EXPECT_EQ(after.replayed, 0);
}

TEST_F(FreshLoadTest, AFreshLoadOfAStreamClosedElsewhereLeavesTheCache) {
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  store_->truncate({TruncateTarget{s, {}, {}, {}, {}}});  // closed by another process
  const auto fresh = app_->load(counter_, s, LoadOptions{.fresh = true});
  ASSERT_TRUE(fresh.event);
  EXPECT_EQ(fresh.event->name, "__tombstone__");
  EXPECT_THROW(app_->do_action("increment", {s, kAnn, {}}, Increment{1}), StreamClosedError)
      << "the cache no longer holds the open state";
}

TEST_F(FreshLoadTest, HandlersLoadFreshByDefault) {
  const std::string s = stream();
  int seen_fresh = -1;
  int seen_cached = -1;
  App looking = watcher(s, [&](ReactionContext& context) {
    seen_fresh = context.load(counter_, s).state.count;
    seen_cached = context.load(counter_, s, LoadOptions{.fresh = false}).state.count;
  });
  looking.do_action("increment", {s, kAnn, {}}, Increment{1});  // cached in the watcher at count 1
  looking.settle();
  other_->do_action("increment", {s, kAnn, {}}, Increment{5});
  // The watcher's cache still says 1: the handler of the second event
  // must see 6 all the same.
  seen_fresh = seen_cached = -1;
  looking.settle();
  EXPECT_EQ(seen_fresh, 6);
  EXPECT_EQ(seen_cached, 6) << "the fresh load refreshed the cache for the next one";
}

TEST_F(FreshLoadTest, AHandlerThatTrustsTheCacheSeesItAsItIs) {
  const std::string s = stream();
  int seen = -1;
  App looking = watcher(s, [&](ReactionContext& context) {
    seen = context.load(counter_, s, LoadOptions{.fresh = false}).state.count;
  });
  looking.do_action("increment", {s, kAnn, {}}, Increment{1});
  looking.settle();
  other_->do_action("increment", {s, kAnn, {}}, Increment{5});
  seen = -1;
  looking.settle();
  EXPECT_EQ(seen, 1) << "what a fresh load is for: the cache alone is behind";
}

// A started app listens for commits when act.notify is on; a notification
// naming a stream it caches drops the stale state.
class NotifiedCacheTest : public CounterAppTest {
 protected:
  static void SetUpTestSuite() {
    CounterAppTest::SetUpTestSuite();
    database().sql("ALTER DATABASE " + database().name() + " SET act.notify = on");
    database().sql("ALTER DATABASE " + database().name() + " SET act.notify_payload = names");
  }

  // Another process increments s until app_'s cache, trusted, shows it: the
  // waker listens on a connection of its own once started, so a commit
  // sent before it listens goes unheard and the next one is sent.
  bool notified_of_another_commit(const std::string& s) {
    App other = app(database().pool()).with(counter_).build();
    return eventually(
        [&] {
          const int now = other.do_action("increment", {s, kAnn, {}}, Increment{5}).state_as<Counter>().count;
          return eventually([&] { return app_->load(counter_, s).state.count == now; }, 1s);
        },
        20s);
  }
};

TEST_F(NotifiedCacheTest, ANotifiedCommitDropsTheStaleState) {
  const std::string s = stream();
  const std::string untouched = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  app_->do_action("increment", {untouched, kAnn, {}}, Increment{1});
  app_->start();  // no reactions: the waker alone, for the cache
  EXPECT_TRUE(notified_of_another_commit(s)) << "a notification dropped the stale cached count";
  const auto kept = app_->load(counter_, untouched);
  EXPECT_TRUE(kept.cache_hit) << "a stream no commit named stays cached";
  app_->shutdown();
}

TEST_F(NotifiedCacheTest, AStartedAppWithoutReactionsClaimsNothing) {
  // Its waker keeps the cache fresh; a lane worker would claim the other
  // app's target in the default lane and pass its events over.
  const std::string s = stream();
  int handled = 0;
  App worker = app(database().pool())
                   .with(counter_)
                   .on<Incremented>("Incremented")
                   .to(Route{"audit-" + s, s})
                   .handle("audit", [&](const Incremented&, ReactionContext&) { ++handled; })
                   .build();
  worker.correlate();  // its fixed target is registered
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  app_->start();
  // Its waker has run (and a lane worker would have, started with it) ...
  ASSERT_TRUE(notified_of_another_commit(s));
  // ... and the other app's work is still there, unclaimed.
  const Subscription row = subscription("audit-" + s);
  EXPECT_FALSE(row.leased_by);
  ASSERT_TRUE(row.correlated_at);
  EXPECT_LT(row.at, *row.correlated_at);
  app_->shutdown();
  worker.settle();
  EXPECT_GE(handled, 2) << "every event was left to the app that reacts to it";
}

}  // namespace
}  // namespace act::test
