#pragma once
// Input rules shared by every entry point that takes stream or event names.
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace act::core {

inline constexpr std::size_t kMaxStreamBytes = 1000;
inline constexpr std::size_t kMaxEventNameBytes = 200;
// Values that land in an index are bounded up front, so that no single row
// can be too large for its index entry (54000) and stop claims or commits.
inline constexpr std::size_t kMaxLaneBytes = 200;
inline constexpr std::size_t kMaxCorrelationBytes = 1000;    // meta.correlation
inline constexpr std::size_t kMaxCorrelatorKeyBytes = 1000;  // act.subscribe's correlator.key
inline constexpr std::size_t kMaxIdempotencyKeyBytes = 200;  // meta.idempotency_key
// The most a commit's events and meta may weigh together, and any other jsonb
// argument parsed in C++ (uncompressed jsonb bytes). Work on a payload takes
// several times its size in backend memory; past this a call is refused
// before any of that work starts.
inline constexpr std::size_t kMaxPayloadBytes = 16 * 1024 * 1024;
inline constexpr std::string_view kSnapshotEvent = "__snapshot__";
inline constexpr std::string_view kTombstoneEvent = "__tombstone__";

// The JSON kind of a value as the extension found it in a jsonb argument.
enum class JsonKind { kAbsent, kNull, kObject, kArray, kString, kNumber, kBool };
std::string_view JsonKindName(JsonKind kind);

// Throws ValidationError unless 1 <= bytes <= kMaxStreamBytes.
// `argument` names the argument in the message ("stream", "targets[2].stream").
void ValidateStreamName(std::string_view stream, std::string_view argument = "stream");

// Throws ValidationError unless `value` takes at most `limit` bytes; `what`
// names the field ("subscriptions[2].lane").
void ValidateIndexedText(std::string_view value, std::string_view what, std::size_t limit);
void ValidateIndexedBytes(std::size_t bytes, std::string_view what, std::size_t limit);

// One element of act.commit's `events` array, as found; throws ValidationError
// naming the stream, the element index and the fault.
struct EventShape {
  JsonKind element = JsonKind::kObject;
  JsonKind name_kind = JsonKind::kAbsent;
  std::string_view name;  // valid when name_kind == kString
  JsonKind data_kind = JsonKind::kAbsent;
  JsonKind pii_kind = JsonKind::kAbsent;
  std::optional<std::string_view> unknown_key;  // a key not in the call's known keys
};
inline constexpr std::initializer_list<const char*> kEventKeys = {"name", "data", "pii", "tags"};
// act.append's events name their streams.
inline constexpr std::initializer_list<const char*> kAppendEventKeys = {"stream", "name", "data", "pii", "tags"};
void ValidateEvent(std::string_view stream, std::size_t index, const EventShape& shape,
                   std::initializer_list<const char*> known = kEventKeys);
// How messages name one element of an events array: event 2 of stream "s".
std::string EventPlace(std::string_view stream, std::size_t index);

// expected_version: NULL (no check), -1 (stream must not exist) or >= 0.
void ValidateExpectedVersion(std::string_view stream, std::optional<long long> expected);

// meta must be a JSON object.
void ValidateMeta(std::string_view stream, JsonKind meta_kind);

// meta.idempotency_key, when present: a string of 1 to kMaxIdempotencyKeyBytes
// bytes (`key` is valid when key_kind is kString).
void ValidateIdempotencyKey(std::string_view stream, JsonKind key_kind, std::string_view key);

// events and meta of one commit: at most kMaxPayloadBytes together.
void ValidateCommitSize(std::string_view stream, std::size_t events_bytes, std::size_t meta_bytes);

// Any other jsonb argument (`argument` names it): at most kMaxPayloadBytes.
void ValidateArgumentSize(std::string_view argument, std::size_t bytes);

}  // namespace act::core
