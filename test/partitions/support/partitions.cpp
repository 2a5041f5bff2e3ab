#include "support/partitions.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <pqxx/connection>
#include <pqxx/nontransaction>
#include <pqxx/result>
#include <sstream>
#include <stdexcept>

namespace act::test {
namespace {

std::vector<std::string> split(const char* text, char separator) {
  std::vector<std::string> parts;
  if (text == nullptr) return parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

}  // namespace

void PartitionsTest::SetUp() {
  conninfos_ = split(std::getenv("ACT_PARTITIONS"), ';');
  ASSERT_GE(conninfos_.size(), 2u) << "ACT_PARTITIONS names no partition databases (test/run-partitions.sh sets it)";
  const char* read_model = std::getenv("ACT_READ_MODEL");
  read_model_conninfo_ = read_model == nullptr ? "" : read_model;
}

std::shared_ptr<ConnectionPool> PartitionsTest::read_model() const {
  if (read_model_conninfo_.empty()) throw std::runtime_error("ACT_READ_MODEL is not set (test/run-partitions.sh sets it)");
  return std::make_shared<ConnectionPool>(read_model_conninfo_);
}

AppBuilder PartitionsTest::counter_app(PartitionMap map, const std::optional<Lane>& lane) const {
  AppBuilder builder = act::app(std::move(map)).with(counter_).logger(stderr_logger(LogLevel::kError));
  if (lane) builder = std::move(builder).lane(*lane);
  return builder;
}

namespace {

std::vector<std::string> first_column(const std::string& conninfo, const std::string& statement) {
  pqxx::connection connection(conninfo);
  pqxx::nontransaction transaction(connection);
  const pqxx::result result = transaction.exec(statement);
  std::vector<std::string> column;
  for (const auto& row : result) column.emplace_back(row[0].is_null() ? "" : row[0].c_str());
  return column;
}

}  // namespace

std::vector<std::string> PartitionsTest::sql(std::int32_t partition, const std::string& statement) const {
  return first_column(conninfos_.at(static_cast<std::size_t>(partition)), statement);
}

std::vector<std::string> PartitionsTest::read_model_sql(const std::string& statement) const {
  if (read_model_conninfo_.empty()) throw std::runtime_error("ACT_READ_MODEL is not set (test/run-partitions.sh sets it)");
  return first_column(read_model_conninfo_, statement);
}

std::string PartitionsTest::unique(std::string_view prefix) const {
  static std::atomic<int> counter{0};
  return std::string(prefix) + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
}

std::string PartitionsTest::stream_in(std::int32_t partition, std::string_view prefix) const {
  for (;;) {
    std::string stream = unique(prefix);
    if (partition_of(stream, partitions()) == partition) return stream;
  }
}

std::set<std::int32_t> PartitionsTest::down() const {
  std::set<std::int32_t> partitions;
  for (const std::string& p : split(std::getenv("ACT_PARTITIONS_DOWN"), ',')) partitions.insert(std::stoi(p));
  return partitions;
}

}  // namespace act::test
