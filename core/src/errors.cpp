#include "act/core/errors.hpp"


namespace act::core {

namespace {
// The contract fixes these messages: the stream name appears whole (it is at
// most 1,000 bytes).
std::string ConflictMessage(const std::string& stream, const std::string& expected, long long actual) {
  return "concurrency conflict on stream \"" + stream + "\": expected version " + expected +
         ", actual version " + std::to_string(actual);
}
}  // namespace

ConcurrencyError::ConcurrencyError(const std::string& stream, long long expected, long long actual)
    : SqlError(sqlstate::kSerializationFailure, ConflictMessage(stream, std::to_string(expected), actual)) {}

ConcurrencyError::ConcurrencyError(const std::string& stream, long long actual)
    : SqlError(sqlstate::kSerializationFailure, ConflictMessage(stream, "any", actual)) {}

ClosedStreamError::ClosedStreamError(const std::string& stream)
    : SqlError(sqlstate::kObjectNotInPrerequisiteState, "stream \"" + stream + "\" is closed") {}

}  // namespace act::core
