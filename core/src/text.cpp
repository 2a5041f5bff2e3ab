#include "act/core/text.hpp"

namespace act::core {

std::string Quoted(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return "\"" + std::string(text) + "\"";
  std::size_t cut = max_bytes;
  // Step back over UTF-8 continuation bytes (10xxxxxx).
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return "\"" + std::string(text.substr(0, cut)) + "...\" (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace act::core
