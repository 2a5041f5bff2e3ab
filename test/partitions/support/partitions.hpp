#pragma once
// The partition databases of test/run-partitions.sh, reached directly:
// ACT_PARTITIONS holds their connect strings in partition order, separated
// by ';'. ACT_PARTITIONS_DOWN lists those whose node is stopped (the
// node-down test only).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "act/act.hpp"
#include "support/counter.hpp"

namespace act::test {

inline const Actor kBot{"bot", "Partition test"};

class PartitionsTest : public ::testing::Test {
 protected:
  void SetUp() override;

  // The counter app on the partitions of map, in a lane of its own when one
  // is given. It logs errors only: every app's default lane also claims the
  // rows the SQL checks left there and warns that it passes their events over.
  AppBuilder counter_app(PartitionMap map, const std::optional<Lane>& lane = std::nullopt) const;

  std::int32_t partitions() const { return static_cast<std::int32_t>(conninfos_.size()); }
  // A map with pools of its own, as a separate process would have.
  PartitionMap map() const { return PartitionMap(conninfos_); }
  // The first column of each row statement returns on partition p's
  // database, as text (NULL: ""), on a connection of its own.
  std::vector<std::string> sql(std::int32_t partition, const std::string& statement) const;
  // The read model database (ACT_READ_MODEL): its pool, and the first
  // column of the rows a statement returns there, as sql() gives them.
  std::shared_ptr<ConnectionPool> read_model() const;
  std::vector<std::string> read_model_sql(const std::string& statement) const;
  // A name no other test of any run uses: prefix-<pid>-<n>.
  std::string unique(std::string_view prefix) const;
  // A unique stream name that falls in the given partition.
  std::string stream_in(std::int32_t partition, std::string_view prefix) const;
  // The partitions ACT_PARTITIONS_DOWN names.
  std::set<std::int32_t> down() const;

  std::vector<std::string> conninfos_;
  std::string read_model_conninfo_;
  State<Counter> counter_ = counter_state();
};

}  // namespace act::test
