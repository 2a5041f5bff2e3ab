// Many threads acting on one stream: conflicts are retried, no update is lost.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "support/counter.hpp"
#include "support/database.hpp"

namespace act::test {
namespace {

constexpr int kThreads = 4;
constexpr int kActionsPerThread = 25;

class ConcurrencyTest : public DatabaseTest {
 protected:
  struct Outcome {
    int succeeded = 0;
    int conflicted = 0;
  };

  // kThreads threads each increment stream s by 1, kActionsPerThread times.
  Outcome hammer(App& shared, const std::string& s) {
    std::atomic<int> succeeded{0};
    std::atomic<int> conflicted{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        const Actor actor{"worker-" + std::to_string(t), "worker"};
        for (int i = 0; i < kActionsPerThread; ++i) {
          try {
            shared.do_action("increment", {s, actor, {}}, Increment{1});
            ++succeeded;
          } catch (const ConcurrencyError&) {
            ++conflicted;
          }
        }
      });
    }
    for (auto& thread : threads) thread.join();
    return {succeeded.load(), conflicted.load()};
  }

  // The count as the store has it, read by an app with a cold cache.
  int stored_count(const std::string& s) {
    const auto counter = counter_state();
    auto fresh = app(pool_).with(counter).build();
    return fresh.load(counter, s).state.count;
  }
};

TEST_F(ConcurrencyTest, RetriesResolveContentionWithoutLostUpdates) {
  auto pool = database().pool(PoolOptions{kThreads, std::chrono::seconds(30)});
  auto shared = app(pool).with(counter_state({.retries = 200})).build();
  const std::string s = stream();
  const Outcome outcome = hammer(shared, s);
  EXPECT_EQ(outcome.succeeded, kThreads * kActionsPerThread) << "every action went through";
  EXPECT_EQ(outcome.conflicted, 0);
  EXPECT_EQ(stored_count(s), outcome.succeeded);
  EXPECT_EQ(store_->version(s), outcome.succeeded - 1);
  const AppStats stats = shared.stats();
  EXPECT_EQ(stats.conflicts, stats.retries + stats.cache_rechecks) << "each conflict was retried once";
}

TEST_F(ConcurrencyTest, WithoutRetriesConflictsSurfaceButNothingIsLost) {
  auto pool = database().pool(PoolOptions{kThreads, std::chrono::seconds(30)});
  auto shared = app(pool).with(counter_state()).build();
  const std::string s = stream();
  const Outcome outcome = hammer(shared, s);
  EXPECT_EQ(outcome.succeeded + outcome.conflicted, kThreads * kActionsPerThread);
  EXPECT_GT(outcome.succeeded, 0);
  EXPECT_EQ(stored_count(s), outcome.succeeded) << "the count equals the successful actions";
  EXPECT_EQ(shared.stats().retries, 0u);
}

}  // namespace
}  // namespace act::test
