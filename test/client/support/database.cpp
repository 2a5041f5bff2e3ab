#include "support/database.hpp"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <pqxx/connection>
#include <pqxx/nontransaction>
#include <pqxx/result>
#include <thread>

namespace act::test {
namespace {

std::unique_ptr<TestDatabase> current_database;

std::string database_name(std::string_view suite) {
  std::string name = "act_client_";
  for (char c : suite) name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return name + "_" + std::to_string(::getpid());
}

std::string run_sql(const std::string& conninfo, const std::string& statement) {
  pqxx::connection connection(conninfo);
  pqxx::nontransaction transaction(connection);
  const pqxx::result result = transaction.exec(statement);
  if (result.empty() || result.columns() == 0 || result[0][0].is_null()) return {};
  return result[0][0].c_str();
}

}  // namespace

TestDatabase::TestDatabase(std::string_view suite) : name_(database_name(suite)), conninfo_("dbname=" + name_) {
  run_sql("dbname=postgres", "DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
  run_sql("dbname=postgres", "CREATE DATABASE " + name_);
  ConnectionPool pool(conninfo_);
  ensure_extension(pool);
}

TestDatabase::~TestDatabase() {
  try {
    run_sql("dbname=postgres", "DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
  } catch (const std::exception& error) {
    ADD_FAILURE() << "dropping " << name_ << ": " << error.what();
  }
}

std::shared_ptr<ConnectionPool> TestDatabase::pool(PoolOptions options) const {
  return std::make_shared<ConnectionPool>(conninfo_, options);
}

std::string TestDatabase::sql(const std::string& statement) const { return run_sql(conninfo_, statement); }

void DatabaseTest::SetUpTestSuite() {
  current_database = std::make_unique<TestDatabase>(::testing::UnitTest::GetInstance()->current_test_suite()->name());
}

void DatabaseTest::TearDownTestSuite() { current_database.reset(); }

TestDatabase& DatabaseTest::database() { return *current_database; }

void DatabaseTest::SetUp() {
  ASSERT_TRUE(current_database) << "the suite's database could not be created";
  pool_ = database().pool();
  store_ = std::make_unique<Store>(pool_);
}

std::string DatabaseTest::stream(std::string_view prefix) const {
  static std::atomic<int> counter{0};
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(prefix) + "-" + info->name() + "-" + std::to_string(counter.fetch_add(1));
}

Subscription DatabaseTest::subscription(const std::string& target) const {
  const auto rows = store_->query_streams(StreamFilter::exactly(target));
  return rows.empty() ? Subscription{} : rows.front();
}

void DatabaseTest::await_active(int pid) {
  for (int i = 0; i < 500 && database().sql("SELECT count(*) FROM pg_stat_activity WHERE pid = " +
                                            std::to_string(pid) + " AND state = 'active'") != "1";
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

std::int64_t DatabaseTest::events_in(const std::string& stream) const {
  Query query;
  query.stream = stream;
  query.with_snaps = true;
  query.after = -1;  // from the first event, not the latest snapshot
  return store_->query(query, [](const Committed&) {});
}

std::uint64_t statements(const ConnectionPool& pool) { return pool.stats().statements; }

}  // namespace act::test
