// The LRU state cache (no database).
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "cache/state_cache.hpp"

namespace act::cache {
namespace {

Entry entry(int state, std::int64_t event_id) { return Entry{state, 0, event_id, 0, 0}; }

TEST(StateCache, EvictsTheLeastRecentlyUsed) {
  StateCache cache(2);
  cache.put("a", entry(1, 1));
  cache.put("b", entry(2, 2));
  ASSERT_TRUE(cache.get("a"));  // a is now the most recent
  cache.put("c", entry(3, 3));
  EXPECT_TRUE(cache.get("a"));
  EXPECT_FALSE(cache.get("b"));
  EXPECT_EQ(std::any_cast<int>(cache.get("c")->state), 3);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(StateCache, KeepsTheNewerOfTwoEntries) {
  StateCache cache(4);
  cache.put("a", entry(10, 10));
  cache.put("a", entry(5, 5));
  EXPECT_EQ(cache.get("a")->event_id, 10);
  cache.put("a", entry(11, 11));
  EXPECT_EQ(std::any_cast<int>(cache.get("a")->state), 11);
}

TEST(StateCache, InvalidationSparesANewerEntry) {
  StateCache cache(4);
  cache.put("a", entry(1, 8));
  cache.invalidate("a", 7);
  EXPECT_TRUE(cache.get("a")) << "the entry is newer than what was found stale";
  cache.invalidate("a", 8);
  EXPECT_FALSE(cache.get("a"));
  cache.put("b", entry(2, 100));
  cache.drop("b");
  EXPECT_FALSE(cache.get("b")) << "drop removes however new";
}

TEST(StateCache, AnInvalidatedStateIsNotPutBackByALoadThatReadBeforeIt) {
  StateCache cache(4);
  cache.put("a", entry(1, 5));
  cache.invalidate("a", 5);  // a commit after event 5 was heard of
  cache.put("a", entry(1, 5));  // a load that read before that commit finishes
  EXPECT_FALSE(cache.get("a")) << "the stale state stays out";
  cache.put("a", entry(2, 9));
  EXPECT_EQ(cache.get("a")->event_id, 9) << "a state past the commit is cached";
  cache.invalidate("never-cached", 3);
  cache.put("never-cached", entry(3, 3));
  EXPECT_FALSE(cache.get("never-cached")) << "remembered even when nothing was cached";
}

TEST(StateCache, RemembersStaleStreamsOnlyAsManyAsItHolds) {
  StateCache cache(2);
  cache.invalidate("a", 5);
  cache.invalidate("b", 5);
  cache.invalidate("c", 5);  // "a" is forgotten
  cache.put("a", entry(1, 5));
  cache.put("b", entry(1, 5));
  EXPECT_TRUE(cache.get("a"));
  EXPECT_FALSE(cache.get("b"));
}

TEST(StateCache, SizeZeroCachesNothing) {
  StateCache cache(0);
  cache.put("a", entry(1, 1));
  EXPECT_FALSE(cache.get("a"));
}

TEST(StateCache, StaysConsistentUnderThreads) {
  StateCache cache(16);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 2000; ++i) {
        const std::string key = "k" + std::to_string((i + t) % 40);
        cache.put(key, entry(i, i));
        if (auto hit = cache.get(key)) {
          EXPECT_GE(hit->event_id, 0);
        }
        if (i % 7 == 0) cache.invalidate(key, i);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_LE(cache.size(), 16u);
}

}  // namespace
}  // namespace act::cache
