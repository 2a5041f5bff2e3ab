#pragma once
// The partition rule's vectors, from an independent SHA-256 (Python's
// hashlib): core's PartitionOf and the client's partition_of are both
// checked against them.
#include <array>
#include <cstdint>
#include <string_view>

namespace act::test {

struct PartitionVector {
  std::string_view stream;
  std::int32_t partitions;
  std::int32_t partition;
};

inline constexpr std::array kPartitionVectors{
    // "ticket-1": SHA-256 starts 73 7c e6 0f = 1937565199.
    PartitionVector{"ticket-1", 1, 0},
    PartitionVector{"ticket-1", 2, 1},
    PartitionVector{"ticket-1", 4, 3},
    PartitionVector{"ticket-1", 64, 15},
    PartitionVector{"ticket-1", 65536, 58895},
    // "order-7": df 8c f8 02 = 3750557698 (the top bit set: no sign trouble).
    PartitionVector{"order-7", 64, 2},
    PartitionVector{"order-7", 65536, 63490},
    // UTF-8 bytes as they are: "Zürich-42" starts fe fb 6c a6.
    PartitionVector{"Z\xC3\xBCrich-42", 64, 38},
    PartitionVector{"Z\xC3\xBCrich-42", 65536, 27814},
};

}  // namespace act::test
