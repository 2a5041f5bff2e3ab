#pragma once
// Text encodings of binary values at the edges: hex for operators, base64 for
// C2SP notes (RFC 4648 §4, the standard alphabet with padding).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "act/core/event_hash.hpp"

namespace act::core {

// Exactly 64 hex digits (either case) to a hash; nullopt for anything else.
std::optional<Hash> HashFromHex(std::string_view hex);

std::string Base64Encode(const std::uint8_t* data, std::size_t size);
inline std::string Base64Encode(const Hash& hash) { return Base64Encode(hash.data(), hash.size()); }

// Canonical base64 only: length a multiple of 4, padding where (and only
// where) it belongs, unused bits zero, no whitespace. nullopt otherwise, so one
// value has one spelling.
std::optional<std::vector<std::uint8_t>> Base64Decode(std::string_view text);

}  // namespace act::core
