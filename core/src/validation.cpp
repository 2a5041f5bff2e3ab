#include "act/core/validation.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "act/core/errors.hpp"
#include "act/core/json_fields.hpp"
#include "act/core/text.hpp"

namespace act::core {

std::string_view JsonKindName(JsonKind kind) {
  switch (kind) {
    case JsonKind::kAbsent: return "absent";
    case JsonKind::kNull: return "null";
    case JsonKind::kObject: return "an object";
    case JsonKind::kArray: return "an array";
    case JsonKind::kString: return "a string";
    case JsonKind::kNumber: return "a number";
    case JsonKind::kBool: return "a boolean";
  }
  return "unknown";
}

void ValidateStreamName(std::string_view stream, std::string_view argument) {
  if (stream.empty()) throw ValidationError(std::string(argument) + " must not be empty");
  if (stream.size() > kMaxStreamBytes)
    throw ValidationError(std::string(argument) + " " + Quoted(stream) + " is longer than " +
                          std::to_string(kMaxStreamBytes) + " bytes");
}

void ValidateIndexedBytes(std::size_t bytes, std::string_view what, std::size_t limit) {
  if (bytes > limit)
    throw ValidationError(std::string(what) + " takes " + std::to_string(bytes) + " bytes: the limit is " +
                          std::to_string(limit) + " bytes");
}

void ValidateIndexedText(std::string_view value, std::string_view what, std::size_t limit) {
  ValidateIndexedBytes(value.size(), what, limit);
}

std::string EventPlace(std::string_view stream, std::size_t index) {
  return "event " + std::to_string(index) + " of stream " + Quoted(stream);
}

void ValidateEvent(std::string_view stream, std::size_t index, const EventShape& shape,
                   std::initializer_list<const char*> known) {
  const std::string where = EventPlace(stream, index);
  if (shape.element != JsonKind::kObject)
    throw ValidationError(where + " must be a JSON object, not " + std::string(JsonKindName(shape.element)));
  if (shape.unknown_key) throw ValidationError(UnknownKeyMessage(where, *shape.unknown_key, known));
  if (shape.name_kind == JsonKind::kAbsent || shape.name_kind == JsonKind::kNull)
    throw ValidationError(where + " has no \"name\"");
  if (shape.name_kind != JsonKind::kString)
    throw ValidationError(where + ": \"name\" must be a string, not " + std::string(JsonKindName(shape.name_kind)));
  if (shape.name.empty()) throw ValidationError(where + ": \"name\" must not be empty");
  if (shape.name.size() > kMaxEventNameBytes)
    throw ValidationError(where + ": \"name\" is longer than " + std::to_string(kMaxEventNameBytes) + " bytes");
  if (shape.name == kTombstoneEvent)
    throw ValidationError(where + ": \"" + std::string(kTombstoneEvent) +
                          "\" is reserved; close a stream with act.truncate");
  if (shape.data_kind != JsonKind::kAbsent && shape.data_kind != JsonKind::kObject)
    throw ValidationError(where + ": \"data\" must be a JSON object, not " +
                          std::string(JsonKindName(shape.data_kind)));
  if (shape.pii_kind != JsonKind::kAbsent && shape.pii_kind != JsonKind::kNull &&
      shape.pii_kind != JsonKind::kObject)
    throw ValidationError(where + ": \"pii\" must be a JSON object or null, not " +
                          std::string(JsonKindName(shape.pii_kind)));
}

void ValidateExpectedVersion(std::string_view stream, std::optional<long long> expected) {
  // bigint in SQL (drivers that bind int8 are served); versions are int4.
  if (expected && (*expected < -1 || *expected > std::numeric_limits<std::int32_t>::max()))
    throw ValidationError("expected_version for stream " + Quoted(stream) + " must be -1 to " +
                          std::to_string(std::numeric_limits<std::int32_t>::max()) + ", not " +
                          std::to_string(*expected));
}

void ValidateMeta(std::string_view stream, JsonKind meta_kind) {
  if (meta_kind != JsonKind::kObject)
    throw ValidationError("meta for stream " + Quoted(stream) + " must be a JSON object, not " +
                          std::string(JsonKindName(meta_kind)));
}

void ValidateIdempotencyKey(std::string_view stream, JsonKind key_kind, std::string_view key) {
  const std::string what = "meta.idempotency_key for stream " + Quoted(stream);
  if (key_kind != JsonKind::kString)
    throw ValidationError(what + " must be a string, not " + std::string(JsonKindName(key_kind)));
  if (key.empty()) throw ValidationError(what + " must not be empty");
  ValidateIndexedBytes(key.size(), what, kMaxIdempotencyKeyBytes);
}

void ValidateCommitSize(std::string_view stream, std::size_t events_bytes, std::size_t meta_bytes) {
  if (events_bytes + meta_bytes > kMaxPayloadBytes)
    throw ValidationError("events and meta for stream " + Quoted(stream) + " take " +
                          std::to_string(events_bytes + meta_bytes) + " bytes: the limit of one commit is " +
                          std::to_string(kMaxPayloadBytes) + " bytes");
}

void ValidateArgumentSize(std::string_view argument, std::size_t bytes) {
  if (bytes > kMaxPayloadBytes)
    throw ValidationError(std::string(argument) + " takes " + std::to_string(bytes) + " bytes: the limit is " +
                          std::to_string(kMaxPayloadBytes) + " bytes");
}

}  // namespace act::core
