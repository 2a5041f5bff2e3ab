#include "act/errors.hpp"

namespace act {

StoreError::StoreError(std::string operation, std::string sqlstate, const std::string& message)
    : Error(message), operation_(std::move(operation)), sqlstate_(std::move(sqlstate)) {}

PartitionError::PartitionError(std::int32_t partition, std::int32_t partitions, const StoreError& cause)
    : StoreError(cause.operation(), cause.sqlstate(),
                 "partition " + std::to_string(partition) + " of " + std::to_string(partitions) + ": " + cause.what()),
      partition_(partition),
      partitions_(partitions) {}

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

namespace {
std::string settle_message(const SettleResult& result) {
  const DrainResult& drained = result.drained;
  std::string message = "settle: " + std::to_string(drained.failed) + " failed reaction attempt" +
                        (drained.failed == 1 ? "" : "s");
  if (drained.blocked > 0) message += ", " + std::to_string(drained.blocked) + " stream(s) blocked";
  if (!drained.failures.empty()) {
    message += "; " + std::string(drained.failures.size() == 1 ? "" : "the first: ") + to_string(drained.failures.front());
  }
  return message;
}
}  // namespace

SettleError::SettleError(SettleResult result) : Error(settle_message(result)), result_(std::move(result)) {}

std::string to_string(const ReactionFailure& failure) {
  std::string text;
  if (failure.target.empty()) {
    text = "a worker cycle failed (tried again later)";
  } else {
    text = (failure.reaction.empty() ? std::string("target ") : failure.reaction + " on target ") + failure.target;
    if (failure.event_id) {
      text += " at event " + std::to_string(*failure.event_id) + " (" + failure.event_name;
      if (!failure.stream.empty()) text += " of " + failure.stream;
      text += ")";
    }
    text += ", attempt " + std::to_string(failure.retry + 1);
  }
  text += ": " + failure.error;
  if (failure.blocked) text += " [blocked: waits for unblock]";
  return text;
}

InvariantError::InvariantError(std::string action, std::string stream, std::string rule)
    : Error(action + " failed invariant: " + rule), action_(std::move(action)), stream_(std::move(stream)),
      rule_(std::move(rule)) {}

}  // namespace act
