#include "act/core/tags.hpp"

#include <algorithm>
#include <string>

#include "act/core/errors.hpp"
#include "act/core/text.hpp"

namespace act::core {

void ValidateTags(std::string_view where, JsonKind list_kind, const std::vector<TagInput>& tags) {
  const std::string at(where);
  if (list_kind == JsonKind::kAbsent || list_kind == JsonKind::kNull) return;
  if (list_kind != JsonKind::kArray)
    throw ValidationError(at + ": \"tags\" must be a JSON array, not " + std::string(JsonKindName(list_kind)));
  if (tags.size() > kMaxTags)
    throw ValidationError(at + ": \"tags\" has " + std::to_string(tags.size()) + " tags, more than " +
                          std::to_string(kMaxTags));
  for (std::size_t i = 0; i < tags.size(); ++i) {
    const std::string tag_at = at + ": tag " + std::to_string(i);
    if (tags[i].kind != JsonKind::kString)
      throw ValidationError(tag_at + " must be a string, not " + std::string(JsonKindName(tags[i].kind)));
    if (tags[i].text.empty()) throw ValidationError(tag_at + " must not be empty");
    if (tags[i].text.size() > kMaxTagBytes)
      throw ValidationError(tag_at + " is longer than " + std::to_string(kMaxTagBytes) + " bytes");
    // Lists are short (at most kMaxTags): a quadratic scan allocates nothing.
    for (std::size_t j = 0; j < i; ++j)
      if (tags[j].text == tags[i].text)
        throw ValidationError(tag_at + " repeats tag " + Quoted(tags[i].text) + " (tags must be distinct)");
  }
}

}  // namespace act::core
