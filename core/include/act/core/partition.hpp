#pragma once
// Partitions of a partitioned deployment (docs/scale-out.md): a stream
// belongs to partition uint32_be(SHA-256(stream)[0..4]) & (partitions - 1),
// the stream's UTF-8 bytes hashed as they are, so every client and router
// computes the same number in any language.
#include <openssl/evp.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string_view>

namespace act::core {

inline constexpr std::int32_t kMaxPartitions = 65536;

// Throws ValidationError (22023) unless partitions is a power of two from 1 to kMaxPartitions.
void ValidatePartitionCount(std::int64_t partitions);

// The partition of a stream among `partitions` (a valid count). Inline, so
// the client library routes by this very rule without linking core.
inline std::int32_t PartitionOf(std::string_view stream, std::int32_t partitions) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(stream.data(), stream.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1 || length != 32)
    throw std::runtime_error("SHA-256 failed");
  const std::uint32_t prefix = (static_cast<std::uint32_t>(digest[0]) << 24) |
                               (static_cast<std::uint32_t>(digest[1]) << 16) |
                               (static_cast<std::uint32_t>(digest[2]) << 8) | static_cast<std::uint32_t>(digest[3]);
  return static_cast<std::int32_t>(prefix & static_cast<std::uint32_t>(partitions - 1));
}

}  // namespace act::core
