#pragma once
// The payload of NOTIFY act_commit (docs/reference.md, "Settings").
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "act/core/event_ref.hpp"

namespace act::core {

// Postgres refuses NOTIFY payloads of 8000 bytes or more; we stay under this.
inline constexpr std::size_t kMaxNotifyPayloadBytes = 7900;

// {"stream": s, "events": [{"id": i, "name": n}, ...]}, or
// {"stream": s, "last": i} when the full form would exceed the limit.
std::string CommitNotifyPayload(std::string_view stream, const std::vector<EventRef>& events);

// {"last": i} only: no stream or event name, for stores where any role that
// can connect may LISTEN (setting act.notify_payload = 'position').
std::string PositionNotifyPayload(const std::vector<EventRef>& events);

}  // namespace act::core
