#pragma once
// Statement parameters in text form; an empty optional is SQL NULL.
// (Batches travel as one jsonb parameter: libpqxx 6 has no array parameters.)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/event.hpp"

namespace act::db {

class Params {
 public:
  Params& null() { return push(std::nullopt); }
  Params& text(std::string_view value) { return push(std::string(value)); }
  Params& text(const std::optional<std::string>& value) { return value ? text(std::string_view(*value)) : null(); }
  Params& number(std::int64_t value) { return push(std::to_string(value)); }
  template <class Integer>
  Params& number(const std::optional<Integer>& value) {
    return value ? number(static_cast<std::int64_t>(*value)) : null();
  }
  Params& boolean(bool value) { return push(value ? "true" : "false"); }
  Params& json(const nlohmann::json& value) { return push(value.dump()); }
  Params& json(const std::optional<nlohmann::json>& value) { return value ? json(*value) : null(); }
  Params& time(const std::optional<Timestamp>& value) { return value ? push(to_iso8601(*value)) : null(); }
  // Already in the server's text form.
  Params& raw(std::optional<std::string> value) { return push(std::move(value)); }

  const std::vector<std::optional<std::string>>& values() const noexcept { return values_; }

 private:
  Params& push(std::optional<std::string> value) {
    values_.push_back(std::move(value));
    return *this;
  }
  std::vector<std::optional<std::string>> values_;
};

}  // namespace act::db
