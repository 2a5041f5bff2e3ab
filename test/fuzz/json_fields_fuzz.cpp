// JsonFields: every typed read of a JSON object either returns a value of the
// asked type and range or throws ValidationError, never anything else.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <limits>

#include "act/core/errors.hpp"
#include "act/core/json_fields.hpp"
#include "fuzz_support.hpp"

namespace {

using act::core::JsonFields;
using act::core::ValidationError;
using act::fuzz::Check;
using nlohmann::json;

// Whether `value` is an integer within [min, max], decided without JsonFields.
bool IntegerInRange(const json& value, std::int64_t min, std::int64_t max) {
  if (value.is_number_unsigned()) {
    const auto number = value.get<std::uint64_t>();
    return max >= 0 && number <= static_cast<std::uint64_t>(max) &&
           (min < 0 || number >= static_cast<std::uint64_t>(min));
  }
  if (value.is_number_integer()) {
    const auto number = value.get<std::int64_t>();
    return number >= min && number <= max;
  }
  return false;
}

template <typename Read>
bool Throws(Read read) {
  try {
    read();
  } catch (const ValidationError&) {
    return true;
  }
  return false;
}

void ReadKey(const JsonFields& fields, const json& object, const std::string& key, std::int64_t min, std::int64_t max) {
  const char* name = key.c_str();
  const auto found = object.find(key);
  const bool absent = found == object.end() || found->is_null();
  Check((fields.Find(name) == nullptr) == absent, "Find is null exactly for absent and null values");

  const bool string_thrown = Throws([&] {
    const auto value = fields.OptionalString(name);
    Check(value.has_value() == !absent, "OptionalString returns a value exactly when one is present");
    if (value) Check(*value == found->get<std::string>(), "OptionalString returns the string");
  });
  Check(string_thrown == (!absent && !found->is_string()), "OptionalString throws exactly for a non-string");

  const bool required_thrown = Throws([&] {
    const std::string value = fields.RequiredString(name);
    Check(!value.empty(), "RequiredString never returns an empty string");
  });
  Check(required_thrown == (absent || !found->is_string() || found->get<std::string>().empty()),
        "RequiredString throws exactly for absent, non-string or empty values");

  const bool int_thrown = Throws([&] {
    const auto value = fields.OptionalInt(name, min, max);
    Check(value.has_value() == !absent, "OptionalInt returns a value exactly when one is present");
    if (value) Check(*value >= min && *value <= max, "OptionalInt stays within its bounds");
    if (value && found->is_number_integer())
      Check(found->is_number_unsigned() ? static_cast<std::uint64_t>(*value) == found->get<std::uint64_t>()
                                        : *value == found->get<std::int64_t>(),
            "OptionalInt returns the number itself");
  });
  Check(int_thrown == (!absent && !IntegerInRange(*found, min, max)),
        "OptionalInt throws exactly for non-integers and integers out of range");

  const bool bool_thrown = Throws([&] {
    const auto value = fields.OptionalBool(name);
    if (value) Check(*value == found->get<bool>(), "OptionalBool returns the boolean");
  });
  Check(bool_thrown == (!absent && !found->is_boolean()), "OptionalBool throws exactly for a non-boolean");

  const bool strings_thrown = Throws([&] {
    const auto value = fields.OptionalStrings(name);
    if (value) Check(value->size() == found->size(), "OptionalStrings keeps every element");
  });
  const bool all_strings = !absent && found->is_array() &&
                           std::all_of(found->begin(), found->end(), [](const json& item) { return item.is_string(); });
  Check(strings_thrown == (!absent && !all_strings), "OptionalStrings throws exactly for anything but an array of strings");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider provider(data, size);
  auto min = provider.ConsumeIntegral<std::int64_t>();
  auto max = provider.ConsumeIntegral<std::int64_t>();
  if (min > max) std::swap(min, max);
  const std::vector<std::uint8_t> rest = provider.ConsumeRemainingBytes<std::uint8_t>();
  const std::optional<json> input = act::fuzz::ParseJson(rest.data(), rest.size());
  if (!input) return 0;
  // Keys the fuzzer can hit often; any other key must be refused.
  static constexpr std::initializer_list<const char*> kKnown = {"a", "b", "c", "id"};
  if (!input->is_object()) {
    Check(Throws([&] { JsonFields fields(*input, "input", kKnown); }), "JsonFields refuses a non-object");
    return 0;
  }
  const bool unknown_key = std::any_of(input->items().begin(), input->items().end(), [&](const auto& item) {
    return std::none_of(kKnown.begin(), kKnown.end(), [&](const char* known) { return item.key() == known; });
  });
  if (unknown_key) {
    Check(Throws([&] { JsonFields fields(*input, "input", kKnown); }), "JsonFields refuses a key it was not told of");
    return 0;
  }
  const JsonFields fields(*input, "input", kKnown);
  int keys = 0;
  for (const auto& [key, value] : input->items()) {
    if (++keys > 16) break;
    ReadKey(fields, *input, key, min, max);
  }
  ReadKey(fields, *input, "absent-key", min, max);
  return 0;
}
