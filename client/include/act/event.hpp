#pragma once
// Events as the store returns them, and as the client sends them.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace act {

// Event times, at the database's precision (microseconds, UTC).
using Timestamp = std::chrono::sys_time<std::chrono::microseconds>;

// The system clock's time now, as a Timestamp.
inline Timestamp timestamp_now() {
  return std::chrono::time_point_cast<std::chrono::microseconds>(std::chrono::system_clock::now());
}

// Reserved event names (docs/reference.md): a state snapshot, and the event that closes a stream.
inline constexpr std::string_view kSnapshotEvent = "__snapshot__";
inline constexpr std::string_view kTombstoneEvent = "__tombstone__";

// An event to append: name, payload, and the sensitive part kept apart so it can be forgotten.
struct Message {
  std::string name;
  nlohmann::json data = nlohmann::json::object();  // null is sent as {}
  std::optional<nlohmann::json> pii;
  // Tags for consistency boundaries (act/boundary.hpp): hashed with the event.
  std::vector<std::string> tags{};
};

// A row of the log.
struct Committed {
  std::int64_t id = 0;         // global order
  std::string stream;
  std::int32_t version = 0;    // 0-based within the stream
  std::string name;
  nlohmann::json data;
  nlohmann::json meta;
  std::optional<nlohmann::json> pii;
  Timestamp created{};         // the committing transaction's time
  std::string hash;            // SHA-256 of the chain link, lower-case hex
  // Its tags, as Store::read, Store::append and the drain deliver them
  // (empty from a plain query: act.query returns no tags).
  std::vector<std::string> tags{};
};

// ISO 8601 in UTC with microseconds ("2025-01-31T12:00:00.000001Z").
std::string to_iso8601(Timestamp time);
// Parses ISO 8601 / PostgreSQL timestamptz text with an offset ("Z", "+00", "+05:30").
// Throws act::ValidationError on anything else.
Timestamp parse_timestamp(std::string_view text);

}  // namespace act
