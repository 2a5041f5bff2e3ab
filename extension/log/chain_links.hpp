#pragma once
// Where a stream's hash chain continues from, looked up by index: the stored
// hash of an event at a version, and the anchor a windowed act.truncate
// recorded in act.stream_anchors for the first version it kept. For the
// checks that recompute hashes from rows (act.verify, act.verify_log).
#include <cstdint>
#include <optional>
#include <string_view>

#include "act/core/event_hash.hpp"

namespace act::pg {

// The stored hash of `stream` at `version`, if that event exists and its hash
// is 32 bytes long.
std::optional<core::Hash> StoredHashAt(std::string_view stream, std::int32_t version);
// The hash the chain of `stream` continues from when its first remaining
// event is `version`: the act.stream_anchors row, if it is for that version
// and 32 bytes long.
std::optional<core::Hash> AnchorBefore(std::string_view stream, std::int32_t version);
// What the event at `version` of `stream` must chain to: zeros at version 0,
// else the event before it, else the anchor; none when neither is there.
std::optional<core::Hash> ChainPredecessor(std::string_view stream, std::int32_t version);

}  // namespace act::pg
