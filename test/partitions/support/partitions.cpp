#include "support/partitions.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <pqxx/connection>
#include <pqxx/nontransaction>
#include <pqxx/result>
#include <sstream>

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
}

AppBuilder PartitionsTest::counter_app(std::shared_ptr<ConnectionPool> pool, const std::optional<Lane>& lane) const {
  AppBuilder builder = act::app(std::move(pool)).with(counter_).logger(stderr_logger(LogLevel::kError));
  if (lane) builder = std::move(builder).lane(*lane);
  return builder;
}

std::vector<std::string> PartitionsTest::sql(std::int32_t partition, const std::string& statement) const {
  pqxx::connection connection(conninfos_.at(static_cast<std::size_t>(partition)));
  pqxx::nontransaction transaction(connection);
  const pqxx::result result = transaction.exec(statement);
  std::vector<std::string> column;
  for (const auto& row : result) column.emplace_back(row[0].is_null() ? "" : row[0].c_str());
  return column;
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
