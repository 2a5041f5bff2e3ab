#pragma once
// Event tags (docs/dcb.md): the rules an event's "tags" list follows in
// act.commit and act.append, and the same rules for the tags of a query item.
#include <cstddef>
#include <string_view>
#include <vector>

#include "act/core/validation.hpp"

namespace act::core {

inline constexpr std::size_t kMaxTags = 64;
inline constexpr std::size_t kMaxTagBytes = 256;

// One element of a "tags" array as found: its JSON kind, and its text when a string.
struct TagInput {
  JsonKind kind = JsonKind::kString;
  std::string_view text;
};

// Throws ValidationError naming `where` ("event 2 of stream \"s\"") unless the
// list is an array (absent or null read as no tags) of at most kMaxTags
// distinct non-empty strings of at most kMaxTagBytes bytes.
void ValidateTags(std::string_view where, JsonKind list_kind, const std::vector<TagInput>& tags);

}  // namespace act::core
