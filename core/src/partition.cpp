#include "act/core/partition.hpp"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>
#include <string>

#include "act/core/errors.hpp"

namespace act::core {

void ValidatePartitionCount(std::int64_t partitions) {
  if (partitions < 1 || partitions > kMaxPartitions || (partitions & (partitions - 1)) != 0)
    throw ValidationError("partitions must be a power of two from 1 to " + std::to_string(kMaxPartitions) + ", not " +
                          std::to_string(partitions));
}

std::int32_t PartitionOf(std::string_view stream, std::int32_t partitions) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(stream.data(), stream.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1 || length != 32)
    throw std::runtime_error("SHA-256 failed");
  const std::uint32_t prefix = (static_cast<std::uint32_t>(digest[0]) << 24) | (static_cast<std::uint32_t>(digest[1]) << 16) |
                               (static_cast<std::uint32_t>(digest[2]) << 8) | static_cast<std::uint32_t>(digest[3]);
  return static_cast<std::int32_t>(prefix & static_cast<std::uint32_t>(partitions - 1));
}

}  // namespace act::core
