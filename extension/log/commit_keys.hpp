#pragma once
// Idempotency keys of commits (docs/reference.md, "Idempotent commits"): a
// commit whose meta carries "idempotency_key" lands at most once per stream;
// its retry is answered with the rows it wrote.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error_bridge.hpp"

namespace act::pg {

// meta.idempotency_key, validated (22023); none when meta has no such key.
std::optional<std::string> IdempotencyKeyOf(std::string_view stream, Jsonb* meta);

// One event of a commit, as a retry sends it.
struct SentEvent {
  std::string_view name;
  Jsonb* data;
};

// Needs SPI. When the stream's events carry `key`: puts the rows of the
// commit that wrote them into `result` (by version; pii only where the
// caller may read it) and returns true. `sent`, the retry's events, must be
// that commit's (same count, names and data, in order), else 22023. Reads
// the latest committed rows: the caller holds the stream's lock, so none
// with this key can be on its way.
bool ReplayKeyedCommit(Datum stream, std::string_view stream_name, const std::string& key,
                       const std::vector<SentEvent>& sent, ReturnSetInfo* result);

}  // namespace act::pg
