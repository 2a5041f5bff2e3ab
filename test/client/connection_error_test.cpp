// act::ConnectionError: a connection that cannot be made or is lost, apart
// from the other store errors so that a caller can tell an outage from a refusal.
#include <gtest/gtest.h>

#include <future>

#include "support/database.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class ConnectionErrorTest : public DatabaseTest {};

TEST_F(ConnectionErrorTest, AConnectionThatCannotBeMadeIsAConnectionErrorOfConnect) {
  for (const std::string& conninfo :
       {std::string("nonsense_option=1"), database().conninfo() + " dbname=no_such_database_here"}) {
    Store store(std::make_shared<ConnectionPool>(conninfo));
    try {
      (void)store.horizon();
      FAIL() << "connected with " << conninfo;
    } catch (const ConnectionError& error) {
      EXPECT_EQ(error.operation(), "connect");
      EXPECT_EQ(std::string(error.what()).rfind("connect: ", 0), 0u) << error.what();
    }
  }
}

TEST_F(ConnectionErrorTest, ABackendTerminatedMidCallIsAConnectionErrorOfTheCall) {
  auto pool = database().pool(PoolOptions{1, 5s});
  Store store(pool);
  const int pid = pool->acquire().backend_pid();
  auto waiting = std::async(std::launch::async, [&] { return store.wait(1'000'000, 10s); });
  await_active(pid);
  database().sql("SELECT pg_terminate_backend(" + std::to_string(pid) + ")");
  try {
    waiting.get();
    FAIL() << "the call survived its backend";
  } catch (const ConnectionError& error) {
    EXPECT_EQ(error.operation(), "act.wait");
  }
}

TEST_F(ConnectionErrorTest, ARefusedArgumentIsNoConnectionError) {
  try {
    (void)Monitor(pool_).lag(std::nullopt, 0);
    FAIL() << "max_rows 0 was taken";
  } catch (const ConnectionError&) {
    FAIL() << "a refusal is not an outage";
  } catch (const ValidationError&) {
  }
  EXPECT_NO_THROW((void)store_->horizon()) << "the connection still serves";
}

}  // namespace
}  // namespace act::test
