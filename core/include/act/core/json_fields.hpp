#pragma once
// Typed reads of JSON fields with errors that name the argument path
// ("leases[2].by must be a string"); used by every jsonb-taking function.
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace act::core {

class JsonFields {
 public:
  // `path` names the object in messages, e.g. "subscriptions[3]". Every key
  // of the object must be in `known`: a misspelt key is an error, never a
  // default (a typo must not widen what a call touches).
  JsonFields(const nlohmann::json& object, std::string path, std::initializer_list<const char*> known);

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

// Throws ValidationError naming the first key of `object` not in `known`
// ("events[0]: unknown key \"payload\" (known: name, data, pii)").
void RejectUnknownKeys(const nlohmann::json& object, const std::string& path,
                       std::initializer_list<const char*> known);
// The message RejectUnknownKeys raises, for callers that read keys their own way.
std::string UnknownKeyMessage(const std::string& path, std::string_view key,
                              std::initializer_list<const char*> known);

// Throws unless `value` is a JSON array; `what` names it.
void RequireArray(const nlohmann::json& value, const std::string& what);
// Throws unless `value` is a JSON object.
void RequireObject(const nlohmann::json& value, const std::string& what);
std::string JsonTypeName(const nlohmann::json& value);

}  // namespace act::core
