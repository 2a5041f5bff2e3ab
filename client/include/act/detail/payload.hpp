#pragma once
// Typed payload conversion that names the offending field when it fails.
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace act::detail {

// Types nlohmann can build from JSON (they have from_json).
template <class T>
concept json_readable = requires(const nlohmann::json& json) { json.get<T>(); };

// Throws ValidationError for target. The field is found from nlohmann's
// message (a missing key) or by comparing payload with expected_shape, the
// serialized default value of the type (a member of the wrong JSON type).
[[noreturn]] void throw_payload_error(std::string_view target, const nlohmann::json& payload,
                                      const nlohmann::json& expected_shape, std::string_view reason);

template <class T>
T parse_payload(const nlohmann::json& payload, std::string_view target) {
  try {
    return payload.get<T>();
  } catch (const nlohmann::json::exception& failure) {
    nlohmann::json shape;
    if constexpr (std::is_default_constructible_v<T> && std::is_constructible_v<nlohmann::json, const T&>) {
      try {
        shape = nlohmann::json(T{});
      } catch (const nlohmann::json::exception&) {
        shape = nullptr;  // no shape to compare with: the reason alone is reported
      }
    }
    throw_payload_error(target, payload, shape, failure.what());
  }
}

}  // namespace act::detail
