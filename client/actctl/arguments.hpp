#pragma once
// Argument values that CLI11 takes as text and actctl checks itself, so a bad
// value gets one clear line naming the option (and exit code 2).
#include <cstdint>
#include <string>
#include <string_view>

#include "act/core/merkle.hpp"

namespace actctl {

// A tree size or index: decimal digits only, within 64 bits.
std::uint64_t ParseCount(std::string_view option, std::string_view text);
// 64 hex digits, either case.
act::core::Hash ParseHash(std::string_view option, std::string_view text);
// Hashes separated by commas; "" is the empty path.
act::core::merkle::Path ParsePath(std::string_view option, std::string_view text);

}  // namespace actctl
