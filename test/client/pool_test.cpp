// The connection pool: reuse, the size cap, and healing after lost connections.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

#include "support/database.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class PoolTest : public DatabaseTest {
 protected:
  // Terminates a backend and waits until it is gone, so the test never races its exit.
  void terminate(int pid) {
    database().sql("SELECT pg_terminate_backend(" + std::to_string(pid) + ")");
    for (int i = 0; i < 500; ++i) {
      if (database().sql("SELECT count(*) FROM pg_stat_activity WHERE pid = " + std::to_string(pid)) == "0") return;
      std::this_thread::sleep_for(10ms);
    }
    FAIL() << "backend " << pid << " did not exit";
  }
};

TEST_F(PoolTest, ReusesAReturnedConnection) {
  auto pool = database().pool(PoolOptions{2, 5s});
  int first_pid = 0;
  {
    auto lease = pool->acquire();
    first_pid = lease.backend_pid();
    EXPECT_EQ(pool->stats().leased, 1u);
  }
  EXPECT_EQ(pool->stats().idle, 1u);
  auto again = pool->acquire();
  EXPECT_EQ(again.backend_pid(), first_pid);
  EXPECT_EQ(pool->stats().opened, 1u);
}

TEST_F(PoolTest, NeverOpensMoreThanItsCap) {
  auto pool = database().pool(PoolOptions{2, 10s});
  std::atomic<int> holding{0};
  std::atomic<int> most{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 3; ++i) {
        auto lease = pool->acquire();
        const int now = ++holding;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::sleep_for(5ms);
        --holding;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(most.load(), 2);
  EXPECT_EQ(pool->stats().opened, 2u);
  EXPECT_EQ(pool->stats().leased, 0u);
}

TEST_F(PoolTest, GivesUpWaitingAfterTheTimeout) {
  auto pool = database().pool(PoolOptions{1, 100ms});
  auto held = pool->acquire();
  const auto started = std::chrono::steady_clock::now();
  try {
    (void)pool->acquire();
    FAIL() << "acquired a second connection from a pool of one";
  } catch (const StoreError& error) {
    EXPECT_EQ(error.operation(), "acquire");
  }
  EXPECT_GE(std::chrono::steady_clock::now() - started, 100ms);
}

TEST_F(PoolTest, ReplacesAnIdleConnectionWhoseBackendWasKilled) {
  auto pool = database().pool(PoolOptions{1, 5s});
  Store store(pool);
  const std::string s = stream();
  store.commit(s, {{"Opened", {}, {}}});
  const int pid = pool->acquire().backend_pid();
  terminate(pid);

  // The very next call works: checkout notices the dead connection.
  EXPECT_EQ(store.version(s), 0);
  EXPECT_NE(pool->acquire().backend_pid(), pid);
  EXPECT_EQ(pool->stats().opened, 2u);
  EXPECT_EQ(pool->stats().discarded, 1u);
}

TEST_F(PoolTest, AConnectionLostMidCallFailsThatCallOnly) {
  auto pool = database().pool(PoolOptions{1, 5s});
  Store store(pool);
  const int pid = pool->acquire().backend_pid();
  // act.wait holds the connection in a call until the timeout.
  auto waiting = std::async(std::launch::async, [&] { return store.wait(1'000'000, 10s); });
  await_active(pid);
  terminate(pid);
  try {
    waiting.get();
    FAIL() << "the call survived its backend";
  } catch (const StoreError& error) {
    EXPECT_EQ(error.operation(), "act.wait");
  }
  const std::string s = stream();
  EXPECT_EQ(store.commit(s, {{"Opened", {}, {}}}).size(), 1u);
  EXPECT_EQ(store.version(s), 0);
  EXPECT_EQ(pool->stats().discarded, 1u);
}

}  // namespace
}  // namespace act::test
