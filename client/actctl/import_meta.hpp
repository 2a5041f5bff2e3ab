#pragma once
// What actctl import adds to an event's meta in pg_act, and how the final
// check and a resumed run read it back:
//   restored_created  the source's own time, ISO 8601 UTC (act.commit stamps
//                     created with its own transaction's time; the Act
//                     adapter reads this key back as created)
//   idempotency_key   "import:<source>:<first>..<last>", the source positions
//                     of the commit's events: a resumed run starts after the
//                     newest such key, and a commit sent twice lands once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "act/event.hpp"

namespace actctl {

inline constexpr std::string_view kRestoredCreated = "restored_created";
inline constexpr std::string_view kIdempotencyKey = "idempotency_key";

std::string ImportKey(std::string_view source, std::int64_t first, std::int64_t last);

// The last source position of a key this import wrote, none for another key.
std::optional<std::int64_t> LastPositionOf(std::string_view source, const nlohmann::json& meta);

// The meta a commit carries: the source event's meta with the two keys added.
// A source meta that already holds one of them is a UsageError.
nlohmann::json TargetMeta(const nlohmann::json& source_meta, act::Timestamp created, std::int64_t position,
                          const std::string& key);

// An imported event's source meta and time, as read back from pg_act.
struct Restored {
  nlohmann::json meta;
  std::optional<act::Timestamp> created;
};
Restored RestoredFrom(const nlohmann::json& target_meta);

}  // namespace actctl
