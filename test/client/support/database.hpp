#pragma once
// A fresh database with pg_act for each test suite, on the cluster the PG*
// environment points at; dropped when the suite ends.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "act/act.hpp"

namespace act::test {

class TestDatabase {
 public:
  explicit TestDatabase(std::string_view suite);
  ~TestDatabase();
  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;

  const std::string& name() const noexcept { return name_; }
  const std::string& conninfo() const noexcept { return conninfo_; }
  std::shared_ptr<ConnectionPool> pool(PoolOptions options = {}) const;
  // Runs SQL as the superuser on a connection of its own; returns the first
  // column of the first row ("" when none) for small checks.
  std::string sql(const std::string& statement) const;

 private:
  std::string name_;
  std::string conninfo_;
};

// Base fixture: one database per suite, a pool and a store per test.
class DatabaseTest : public ::testing::Test {
 public:
  static void SetUpTestSuite();
  static void TearDownTestSuite();

 protected:
  void SetUp() override;
  static TestDatabase& database();
  // A stream name no other test of the suite uses.
  std::string stream(std::string_view prefix = "s") const;
  // The target's subscription row (a default one when there is none yet).
  Subscription subscription(const std::string& target) const;
  // Waits until the backend runs a statement (a call parked in act.wait).
  static void await_active(int pid);
  // How many events the stream holds, snapshots and tombstones included.
  std::int64_t events_in(const std::string& stream) const;

  std::shared_ptr<ConnectionPool> pool_;
  std::unique_ptr<Store> store_;
};

// Statements sent by a pool so far: how tests tell whether a call reached the database.
std::uint64_t statements(const ConnectionPool& pool);

}  // namespace act::test
