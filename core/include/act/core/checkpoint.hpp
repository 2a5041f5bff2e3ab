#pragma once
// The C2SP tlog-checkpoint note body (https://c2sp.org/tlog-checkpoint): the
// origin line, the tree size in decimal, the root in base64, then optional
// extension lines; every line ends in "\n". Signatures (C2SP signed-note)
// follow the body after a blank line and are not part of it.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "act/core/event_hash.hpp"

namespace act::core {

struct Checkpoint {
  std::string origin;
  std::uint64_t size = 0;
  Hash root{};
  std::vector<std::string> extensions;  // extension lines, without their "\n"
  friend bool operator==(const Checkpoint&, const Checkpoint&) = default;
};

// Throws ValidationError for an empty origin or extension line, or one that
// holds a newline.
std::string FormatCheckpoint(const Checkpoint& checkpoint);

// Strict: exactly the text FormatCheckpoint makes for some checkpoint (size
// without leading zeros, canonical base64 of 32 bytes, no blank or
// unterminated line). Throws ValidationError naming the line and the fault.
Checkpoint ParseCheckpoint(std::string_view text);

}  // namespace act::core
