#include "act/core/json_fields.hpp"

#include "act/core/errors.hpp"
#include "act/core/text.hpp"

namespace act::core {

std::string JsonTypeName(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    default: return "a number";
  }
}

void RequireArray(const nlohmann::json& value, const std::string& what) {
  if (!value.is_array()) throw ValidationError(what + " must be a JSON array, not " + JsonTypeName(value));
}

void RequireObject(const nlohmann::json& value, const std::string& what) {
  if (!value.is_object()) throw ValidationError(what + " must be a JSON object, not " + JsonTypeName(value));
}

std::string UnknownKeyMessage(const std::string& path, std::string_view key,
                              std::initializer_list<const char*> known) {
  std::string message = path + ": unknown key " + Quoted(key) + " (known:";
  const char* separator = " ";
  for (const char* name : known) {
    message += separator;
    message += name;
    separator = ", ";
  }
  return message + ")";
}

void RejectUnknownKeys(const nlohmann::json& object, const std::string& path,
                       std::initializer_list<const char*> known) {
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    bool listed = false;
    for (const char* name : known) listed = listed || key == name;
    if (!listed) throw ValidationError(UnknownKeyMessage(path, key, known));
  }
}

JsonFields::JsonFields(const nlohmann::json& object, std::string path, std::initializer_list<const char*> known)
    : object_(object), path_(std::move(path)) {
  RequireObject(object_, path_);
  RejectUnknownKeys(object_, path_, known);
}

const nlohmann::json* JsonFields::Find(const char* key) const {
  auto found = object_.find(key);
  if (found == object_.end() || found->is_null()) return nullptr;
  return &*found;
}

std::optional<std::string> JsonFields::OptionalString(const char* key) const {
  const nlohmann::json* value = Find(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string()) throw ValidationError(PathOf(key) + " must be a string, not " + JsonTypeName(*value));
  return value->get<std::string>();
}

std::string JsonFields::RequiredString(const char* key) const {
  std::optional<std::string> value = OptionalString(key);
  if (!value) throw ValidationError(PathOf(key) + " is required");
  if (value->empty()) throw ValidationError(PathOf(key) + " must not be empty");
  return *value;
}

std::optional<std::int64_t> JsonFields::OptionalInt(const char* key, std::int64_t min, std::int64_t max) const {
  const nlohmann::json* value = Find(key);
  if (value == nullptr) return std::nullopt;
  std::int64_t number = 0;
  if (value->is_number_unsigned()) {
    const auto unsigned_value = value->get<std::uint64_t>();
    // Compared before the conversion, which would wrap values above INT64_MAX to negatives.
    if (max < 0 || unsigned_value > static_cast<std::uint64_t>(max))
      throw ValidationError(PathOf(key) + " must be at most " + std::to_string(max));
    number = static_cast<std::int64_t>(unsigned_value);
  } else if (value->is_number_integer()) {
    number = value->get<std::int64_t>();
  } else {
    // A float here is a fraction or an integer too large for int64 (1e30).
    throw ValidationError(PathOf(key) + " must be an integer, not " +
                          (value->is_number() ? value->dump() : JsonTypeName(*value)));
  }
  if (number < min || number > max)
    throw ValidationError(PathOf(key) + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                          ", not " + std::to_string(number));
  return number;
}

std::int64_t JsonFields::RequiredInt(const char* key, std::int64_t min, std::int64_t max) const {
  std::optional<std::int64_t> value = OptionalInt(key, min, max);
  if (!value) throw ValidationError(PathOf(key) + " is required");
  return *value;
}

std::optional<bool> JsonFields::OptionalBool(const char* key) const {
  const nlohmann::json* value = Find(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_boolean()) throw ValidationError(PathOf(key) + " must be a boolean, not " + JsonTypeName(*value));
  return value->get<bool>();
}

std::optional<std::vector<std::string>> JsonFields::OptionalStrings(const char* key) const {
  const nlohmann::json* value = Find(key);
  if (value == nullptr) return std::nullopt;
  RequireArray(*value, PathOf(key));
  std::vector<std::string> strings;
  strings.reserve(value->size());
  for (std::size_t i = 0; i < value->size(); ++i) {
    const nlohmann::json& item = (*value)[i];
    if (!item.is_string())
      throw ValidationError(PathOf(key) + "[" + std::to_string(i) + "] must be a string, not " + JsonTypeName(item));
    strings.push_back(item.get<std::string>());
  }
  return strings;
}

}  // namespace act::core
