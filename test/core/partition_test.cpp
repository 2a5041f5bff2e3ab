// act.partition_of: the first four bytes of SHA-256(stream), big-endian,
// masked by the partition count. Expected values from an independent
// SHA-256 (partition_vectors.hpp), so the documented rule is what is tested.
#include <gtest/gtest.h>

#include "act/core/errors.hpp"
#include "act/core/partition.hpp"
#include "partition_vectors.hpp"

namespace act::core {
namespace {

TEST(PartitionOf, IsTheMaskedBigEndianPrefixOfSha256) {
  for (const test::PartitionVector& vector : test::kPartitionVectors)
    EXPECT_EQ(PartitionOf(vector.stream, vector.partitions), vector.partition)
        << vector.stream << " of " << vector.partitions;
}

TEST(PartitionOf, CountsArePowersOfTwoUpTo65536) {
  for (const std::int64_t good : {1, 2, 4, 64, 65536}) EXPECT_NO_THROW(ValidatePartitionCount(good)) << good;
  for (const std::int64_t bad : {0, -1, 3, 6, 100, 131072}) EXPECT_THROW(ValidatePartitionCount(bad), ValidationError) << bad;
}

}  // namespace
}  // namespace act::core
