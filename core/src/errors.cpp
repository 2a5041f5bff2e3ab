#include "act/core/errors.hpp"

#include <nlohmann/json.hpp>

namespace act::core {

namespace {
// The contract fixes these messages: the stream name appears whole (it is at
// most 1,000 bytes).
std::string ConflictMessage(const std::string& stream, const std::string& expected, long long actual) {
  return "concurrency conflict on stream \"" + stream + "\": expected version " + expected +
         ", actual version " + std::to_string(actual);
}
std::string Detail(const nlohmann::ordered_json& fields) {
  return fields.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
}  // namespace

ConcurrencyError::ConcurrencyError(const std::string& stream, long long expected, long long actual)
    : SqlError(sqlstate::kSerializationFailure, ConflictMessage(stream, std::to_string(expected), actual),
               Detail({{"stream", stream}, {"expected", expected}, {"actual", actual}})) {}

ConcurrencyError::ConcurrencyError(const std::string& stream, long long actual)
    : SqlError(sqlstate::kSerializationFailure, ConflictMessage(stream, "any", actual),
               Detail({{"stream", stream}, {"expected", nullptr}, {"actual", actual}})) {}

ClosedStreamError::ClosedStreamError(const std::string& stream)
    : SqlError(sqlstate::kObjectNotInPrerequisiteState, "stream \"" + stream + "\" is closed",
               Detail({{"stream", stream}})) {}

}  // namespace act::core
