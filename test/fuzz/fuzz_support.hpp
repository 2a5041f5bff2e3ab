#pragma once
// Shared by the fuzz targets: JSON from raw bytes as the extension gets it
// (Postgres hands over valid JSON only), UTF-8 validity, and checks that
// abort with a message libFuzzer reports.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace act::fuzz {

// nullopt for what Postgres refuses before any of our code runs: bytes that
// are not JSON, and \u0000 (jsonb cannot hold it).
inline std::optional<nlohmann::json> ParseJson(const std::uint8_t* data, std::size_t size) {
  nlohmann::json value = nlohmann::json::parse(data, data + size, nullptr, false);
  if (value.is_discarded() || value.dump().find("\\u0000") != std::string::npos) return std::nullopt;
  return value;
}

[[noreturn]] inline void Fail(const char* what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}

inline void Check(bool condition, const char* what) {
  if (!condition) Fail(what);
}

// Strict UTF-8 (no overlongs, surrogates or code points above U+10FFFF), as Postgres accepts it.
inline bool ValidUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    std::uint32_t code = 0;
    if (lead < 0x80) {
      ++i;
      continue;
    }
    if ((lead & 0xE0) == 0xC0) {
      length = 2;
      code = lead & 0x1Fu;
    } else if ((lead & 0xF0) == 0xE0) {
      length = 3;
      code = lead & 0x0Fu;
    } else if ((lead & 0xF8) == 0xF0) {
      length = 4;
      code = lead & 0x07u;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3Fu);
    }
    const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

}  // namespace act::fuzz
