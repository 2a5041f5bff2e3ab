// act.partition_of: the first four bytes of SHA-256(stream), big-endian,
// masked by the partition count. Expected values from an independent
// SHA-256 (Python's hashlib), so the documented rule is what is tested.
#include <gtest/gtest.h>

#include "act/core/errors.hpp"
#include "act/core/partition.hpp"

namespace act::core {
namespace {

TEST(PartitionOf, IsTheMaskedBigEndianPrefixOfSha256) {
  // "ticket-1": SHA-256 starts 73 7c e6 0f = 1937565199.
  EXPECT_EQ(PartitionOf("ticket-1", 1), 0);
  EXPECT_EQ(PartitionOf("ticket-1", 2), 1);
  EXPECT_EQ(PartitionOf("ticket-1", 4), 3);
  EXPECT_EQ(PartitionOf("ticket-1", 64), 15);
  EXPECT_EQ(PartitionOf("ticket-1", 65536), 58895);
  // "order-7": df 8c f8 02 = 3750557698 (the top bit set: no sign trouble).
  EXPECT_EQ(PartitionOf("order-7", 64), 2);
  EXPECT_EQ(PartitionOf("order-7", 65536), 63490);
  // UTF-8 bytes as they are: "Zürich-42" starts fe fb 6c a6.
  EXPECT_EQ(PartitionOf("Z\xC3\xBCrich-42", 64), 38);
  EXPECT_EQ(PartitionOf("Z\xC3\xBCrich-42", 65536), 27814);
}

TEST(PartitionOf, CountsArePowersOfTwoUpTo65536) {
  for (const std::int64_t good : {1, 2, 4, 64, 65536}) EXPECT_NO_THROW(ValidatePartitionCount(good)) << good;
  for (const std::int64_t bad : {0, -1, 3, 6, 100, 131072}) EXPECT_THROW(ValidatePartitionCount(bad), ValidationError) << bad;
}

}  // namespace
}  // namespace act::core
