#include "random_uuid.hpp"

#include <array>
#include <cstdint>
#include <random>

namespace act::detail {

std::string random_uuid() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::array<std::uint8_t, 16> bytes{};
  for (std::size_t at = 0; at < bytes.size(); at += 8) {
    std::uint64_t word = generator();
    for (std::size_t i = 0; i < 8; ++i, word >>= 8) bytes[at + i] = static_cast<std::uint8_t>(word & 0xFF);
  }
  bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0F) | 0x40);  // version 4
  bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  id.reserve(36);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) id.push_back('-');
    id.push_back(kHex[bytes[i] >> 4]);
    id.push_back(kHex[bytes[i] & 0x0F]);
  }
  return id;
}

}  // namespace act::detail
