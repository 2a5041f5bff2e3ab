#include "act/errors.hpp"

namespace act {

StoreError::StoreError(std::string operation, std::string sqlstate, const std::string& message)
    : Error(message), operation_(std::move(operation)), sqlstate_(std::move(sqlstate)) {}

namespace {
std::string conflict_message(const std::string& stream, std::optional<std::int32_t> expected, std::int32_t actual) {
  return "concurrency conflict on stream \"" + stream + "\": expected version " +
         (expected ? std::to_string(*expected) : std::string("any")) + ", actual version " + std::to_string(actual);
}
}  // namespace

ConcurrencyError::ConcurrencyError(std::string stream, std::optional<std::int32_t> expected_version,
                                   std::int32_t actual_version)
    : Error(conflict_message(stream, expected_version, actual_version)),
      stream_(std::move(stream)),
      expected_version_(expected_version),
      actual_version_(actual_version) {}

ValidationError::ValidationError(const std::string& message, std::string target, std::string field,
                                 std::string sqlstate)
    : Error(message), target_(std::move(target)), field_(std::move(field)), sqlstate_(std::move(sqlstate)) {}

StreamClosedError::StreamClosedError(std::string stream)
    : Error("stream \"" + stream + "\" is closed"), stream_(std::move(stream)) {}

InvariantError::InvariantError(std::string action, std::string stream, std::string rule)
    : Error(action + " failed invariant: " + rule), action_(std::move(action)), stream_(std::move(stream)),
      rule_(std::move(rule)) {}

}  // namespace act
