// The client's partition rule and map, without a database: core's vectors
// (test/core/partition_vectors.hpp), so the client routes exactly as
// act.partition_of does.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "act/partitions.hpp"
#include "partition_vectors.hpp"

namespace act {
namespace {

TEST(PartitionOf, IsTheMaskedBigEndianPrefixOfSha256) {
  for (const test::PartitionVector& vector : test::kPartitionVectors)
    EXPECT_EQ(partition_of(vector.stream, vector.partitions), vector.partition)
        << vector.stream << " of " << vector.partitions;
}

TEST(PartitionOf, CountsArePowersOfTwoUpTo65536) {
  for (const std::int32_t good : {1, 2, 4, 64, 65536}) EXPECT_NO_THROW(partition_of("s", good)) << good;
  for (const std::int32_t bad : {0, -1, -4, 3, 6, 100, 131072})
    EXPECT_THROW(partition_of("s", bad), std::invalid_argument) << bad;
}

std::vector<std::shared_ptr<ConnectionPool>> pools(std::size_t count) {
  std::vector<std::shared_ptr<ConnectionPool>> made;
  for (std::size_t p = 0; p < count; ++p)
    made.push_back(std::make_shared<ConnectionPool>("dbname=act_p" + std::to_string(p)));
  return made;
}

TEST(PartitionMap, RoutesAStreamToThePoolOfItsPartition) {
  const auto given = pools(64);
  const PartitionMap map(given);
  EXPECT_EQ(map.partitions(), 64);
  EXPECT_EQ(map.partition_of("ticket-1"), 15);
  EXPECT_EQ(map.partition_of("order-7"), 2);
  EXPECT_EQ(map.partition_of("Z\xC3\xBCrich-42"), 38);
  EXPECT_EQ(map.pool_for("ticket-1"), given[15]);
  EXPECT_EQ(map.pool_for("Z\xC3\xBCrich-42"), given[38]);
  EXPECT_EQ(map.pool(0), given[0]);
  EXPECT_EQ(map.pool(63), given[63]);
  EXPECT_THROW(map.pool(64), std::out_of_range);
  EXPECT_THROW(map.pool(-1), std::out_of_range);
}

TEST(PartitionMap, BuildsAPoolPerConnectionStringInPartitionOrder) {
  const PartitionMap map(std::vector<std::string>{"dbname=act_p0", "dbname=act_p1", "dbname=act_p2", "dbname=act_p3"},
                         PoolOptions{2});
  EXPECT_EQ(map.partitions(), 4);
  for (std::int32_t p = 0; p < 4; ++p) EXPECT_EQ(map.pool(p)->conninfo(), "dbname=act_p" + std::to_string(p));
  EXPECT_EQ(map.pool_for("ticket-1")->conninfo(), "dbname=act_p3");
  EXPECT_EQ(map.pool(0)->stats().opened, 0u) << "nothing connects before it is used";
}

TEST(PartitionMap, TakesAPowerOfTwoOfPoolsAndNoNullOne) {
  for (const std::size_t bad : {std::size_t{0}, std::size_t{3}, std::size_t{6}})
    EXPECT_THROW(PartitionMap{pools(bad)}, std::invalid_argument) << bad;
  EXPECT_THROW(PartitionMap(std::vector<std::string>{"a", "b", "c"}), std::invalid_argument);
  auto with_hole = pools(2);
  with_hole[1].reset();
  EXPECT_THROW(PartitionMap{with_hole}, std::invalid_argument);
  EXPECT_EQ(PartitionMap(pools(1)).partition_of("anything"), 0);
}

}  // namespace
}  // namespace act
