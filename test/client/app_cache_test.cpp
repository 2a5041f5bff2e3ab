// The state cache as the app uses it: hits never touch the database, a
// commit updates the entry, a conflict drops it.
#include <gtest/gtest.h>

#include "support/counter_app.hpp"

namespace act::test {
namespace {

class AppCacheTest : public CounterAppTest {};

TEST_F(AppCacheTest, AHitDoesNotTouchTheDatabase) {
  const std::string s = stream();
  store_->commit(s, {{"Incremented", {{"by", 3}}, {}}, {"Incremented", {{"by", 4}}, {}}});
  const auto cold = app_->load(counter_, s);
  EXPECT_FALSE(cold.cache_hit);
  EXPECT_EQ(cold.replayed, 2);

  const auto sent = statements(*pool_);
  const auto warm = app_->load(counter_, s);
  EXPECT_EQ(statements(*pool_), sent) << "no statement for a cache hit";
  EXPECT_TRUE(warm.cache_hit);
  EXPECT_EQ(warm.replayed, 0);
  EXPECT_EQ(warm.state.count, 7);
  EXPECT_EQ(warm.version, 1);
  EXPECT_EQ(warm.id, cold.id);
  EXPECT_EQ(app_->stats().cache_hits, 1u);
}

TEST_F(AppCacheTest, ACommitUpdatesTheEntry) {
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  const auto sent = statements(*pool_);
  const auto result = app_->do_action("increment", {s, kAnn, {}}, Increment{2});
  EXPECT_EQ(statements(*pool_) - sent, 1u) << "loaded from the cache: the commit is the only statement";
  const auto warm = app_->load(counter_, s);
  EXPECT_TRUE(warm.cache_hit);
  EXPECT_EQ(warm.state.count, 3);
  EXPECT_EQ(warm.version, result.version);
  EXPECT_EQ(warm.id, result.id);
}

TEST_F(AppCacheTest, AConflictDropsTheEntry) {
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  store_->commit(s, {{"Incremented", {{"by", 100}}, {}}});  // a writer the cache never saw
  EXPECT_TRUE(app_->load(counter_, s).cache_hit);

  EXPECT_THROW(app_->do_action("increment", {s, kAnn, 0}, Increment{1}), ConcurrencyError);
  const auto reloaded = app_->load(counter_, s);
  EXPECT_FALSE(reloaded.cache_hit) << "the conflict invalidated the entry";
  EXPECT_EQ(reloaded.state.count, 101);
  EXPECT_EQ(reloaded.version, 1);
}

TEST_F(AppCacheTest, AStaleHitIsRetriedFromTheDatabaseOnce) {
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  store_->commit(s, {{"Incremented", {{"by", 100}}, {}}});
  // No retries configured, yet the action succeeds: the conflict came from
  // the cache being behind, and the reload from the store is not a retry.
  const auto result = app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  EXPECT_EQ(result.attempts, 2);
  EXPECT_EQ(result.state_as<Counter>().count, 102);
  EXPECT_EQ(app_->stats().conflicts, 1u);
  EXPECT_EQ(app_->stats().cache_rechecks, 1u);
  EXPECT_EQ(app_->stats().retries, 0u);
}

TEST_F(AppCacheTest, ARefusalOnACachedStateIsCheckedAgainstTheStore) {
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  app_->do_action("decrement", {s, kAnn, {}}, Decrement{1});  // cached: count 0
  store_->commit(s, {{"Incremented", {{"by", 5}}, {}}});        // the store: count 5
  const auto result = app_->do_action("decrement", {s, kAnn, {}}, Decrement{1});
  EXPECT_EQ(result.state_as<Counter>().count, 4) << "the cached count 0 did not refuse the action";
  EXPECT_EQ(result.attempts, 2);
  EXPECT_EQ(app_->stats().cache_rechecks, 1u);

  // On the store's own state a refusal stands.
  const std::string empty = stream();
  app_->do_action("increment", {empty, kAnn, {}}, Increment{1});
  app_->do_action("decrement", {empty, kAnn, {}}, Decrement{1});
  EXPECT_THROW(app_->do_action("decrement", {empty, kAnn, {}}, Decrement{1}), InvariantError);
  EXPECT_EQ(store_->version(empty), 1);
}

TEST_F(AppCacheTest, ASizeOfZeroTurnsTheCacheOff) {
  auto uncached = app(pool_).with(counter_).cache_size(0).build();
  const std::string s = stream();
  uncached.do_action("increment", {s, kAnn, {}}, Increment{1});
  const auto sent = statements(*pool_);
  const auto loaded = uncached.load(counter_, s);
  EXPECT_FALSE(loaded.cache_hit);
  EXPECT_EQ(statements(*pool_) - sent, 1u);
}

TEST_F(AppCacheTest, TheLeastRecentlyUsedStreamLeaves) {
  auto small = app(pool_).with(counter_).cache_size(2).build();
  const std::string a = stream("a");
  const std::string b = stream("b");
  const std::string c = stream("c");
  for (const auto& s : {a, b, c}) small.do_action("increment", {s, kAnn, {}}, Increment{1});
  EXPECT_FALSE(small.load(counter_, a).cache_hit);
  EXPECT_TRUE(small.load(counter_, c).cache_hit);
}

}  // namespace
}  // namespace act::test
