// Names the field a typed payload conversion failed on.
#include <string>

#include "act/detail/payload.hpp"
#include "act/errors.hpp"

namespace act::detail {
namespace {

const char* kind_name(const nlohmann::json& value) {
  if (value.is_number()) return "a number";  // integers and floats convert into each other
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  return "null";
}

// nlohmann's messages start with "[json.exception.<kind>.<id>] ".
std::string_view without_tag(std::string_view reason) {
  if (reason.starts_with("[json.exception.")) {
    if (const auto end = reason.find("] "); end != std::string_view::npos) reason.remove_prefix(end + 2);
  }
  return reason;
}

// "key 'by' not found" names the missing member.
std::string missing_key(std::string_view reason) {
  constexpr std::string_view kPrefix = "key '";
  constexpr std::string_view kSuffix = "' not found";
  if (reason.starts_with(kPrefix) && reason.ends_with(kSuffix)) {
    return std::string(reason.substr(kPrefix.size(), reason.size() - kPrefix.size() - kSuffix.size()));
  }
  return {};
}

}  // namespace

void throw_payload_error(std::string_view target, const nlohmann::json& payload, const nlohmann::json& expected_shape,
                         std::string_view reason) {
  const std::string where(target);
  const std::string_view text = without_tag(reason);
  if (!payload.is_object() && (expected_shape.is_object() || expected_shape.is_null())) {
    throw ValidationError(where + ": the payload must be a JSON object, not " + kind_name(payload), where, {});
  }
  if (const std::string key = missing_key(text); !key.empty()) {
    throw ValidationError(where + ": " + key + " is required", where, key);
  }
  if (expected_shape.is_object()) {
    for (const auto& [key, expected] : expected_shape.items()) {
      if (expected.is_null()) continue;  // an optional member: any value may be fine
      const auto given = payload.find(key);
      if (given == payload.end()) continue;
      if (std::string_view(kind_name(*given)) != kind_name(expected)) {
        throw ValidationError(where + ": " + key + " must be " + kind_name(expected) + ", not " + kind_name(*given), where,
                              key);
      }
    }
  }
  throw ValidationError(where + ": " + std::string(text), where, {});
}

}  // namespace act::detail
