#pragma once
// Typed reads of JSON fields with errors that name the argument path
// ("leases[2].by must be a string"); used by every jsonb-taking function.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace act::core {

class JsonFields {
 public:
  // `path` names the object in messages, e.g. "subscriptions[3]".
  JsonFields(const nlohmann::json& object, std::string path);

  // Absent and null read as nullopt; a present value of the wrong type throws.
  std::optional<std::string> OptionalString(const char* key) const;
  std::string RequiredString(const char* key) const;  // present, a string, not empty
  std::optional<std::int64_t> OptionalInt(const char* key, std::int64_t min, std::int64_t max) const;
  std::int64_t RequiredInt(const char* key, std::int64_t min, std::int64_t max) const;
  std::optional<bool> OptionalBool(const char* key) const;
  std::optional<std::vector<std::string>> OptionalStrings(const char* key) const;
  const nlohmann::json* Find(const char* key) const;  // null when absent or JSON null
  std::string PathOf(const char* key) const { return path_ + "." + key; }

 private:
  const nlohmann::json& object_;
  std::string path_;
};

// Throws unless `value` is a JSON array; `what` names it.
void RequireArray(const nlohmann::json& value, const std::string& what);
// Throws unless `value` is a JSON object.
void RequireObject(const nlohmann::json& value, const std::string& what);
std::string JsonTypeName(const nlohmann::json& value);

}  // namespace act::core
