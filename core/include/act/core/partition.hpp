#pragma once
// Partitions of a partitioned deployment (docs/scale-out.md): a stream
// belongs to partition uint32_be(SHA-256(stream)[0..4]) & (partitions - 1),
// the stream's UTF-8 bytes hashed as they are, so every client and router
// computes the same number in any language.
#include <cstdint>
#include <string_view>

namespace act::core {

inline constexpr std::int32_t kMaxPartitions = 65536;

// Throws ValidationError (22023) unless partitions is a power of two from 1 to kMaxPartitions.
void ValidatePartitionCount(std::int64_t partitions);

// The partition of a stream among `partitions` (a valid count).
std::int32_t PartitionOf(std::string_view stream, std::int32_t partitions);

}  // namespace act::core
