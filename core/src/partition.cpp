#include "act/core/partition.hpp"

#include <string>

#include "act/core/errors.hpp"

namespace act::core {

void ValidatePartitionCount(std::int64_t partitions) {
  if (partitions < 1 || partitions > kMaxPartitions || (partitions & (partitions - 1)) != 0)
    throw ValidationError("partitions must be a power of two from 1 to " + std::to_string(kMaxPartitions) + ", not " +
                          std::to_string(partitions));
}

}  // namespace act::core
