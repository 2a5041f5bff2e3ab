#include <string>

#include "act/projection_version.hpp"

namespace act {
namespace {

// PostgreSQL cuts identifiers at 63 bytes; leave room for "_v" and a number.
constexpr std::size_t kMaxSchemaBase = 50;

}  // namespace

std::string projection_version_target(std::string_view name, std::int32_t version) {
  if (version == 1) return std::string(name);
  return std::string(name) + "@v" + std::to_string(version);
}

std::string projection_reading_schema(std::string_view name) {
  std::string schema;
  for (const char c : name) {
    if (schema.size() == kMaxSchemaBase) break;
    const bool digit = c >= '0' && c <= '9';
    if ((c >= 'a' && c <= 'z') || digit) {
      if (digit && schema.empty()) schema += "p_";  // an identifier starts with a letter
      schema += c;
    } else if (c >= 'A' && c <= 'Z') {
      schema += static_cast<char>(c - 'A' + 'a');
    } else {
      schema += '_';
    }
  }
  return schema;
}

std::string projection_version_schema(std::string_view name, std::int32_t version) {
  return projection_reading_schema(name) + "_v" + std::to_string(version);
}

}  // namespace act
