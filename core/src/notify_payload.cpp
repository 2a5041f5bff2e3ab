#include "act/core/notify_payload.hpp"

#include <nlohmann/json.hpp>

namespace act::core {

std::string CommitNotifyPayload(std::string_view stream, const std::vector<EventRef>& events) {
  nlohmann::ordered_json full = {{"stream", stream}, {"events", nlohmann::ordered_json::array()}};
  for (const auto& event : events) full["events"].push_back({{"id", event.id}, {"name", event.name}});
  // Invalid UTF-8 cannot reach here (Postgres validated the text), but never throw on it.
  std::string text = full.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() <= kMaxNotifyPayloadBytes) return text;
  nlohmann::ordered_json brief = {{"stream", stream}, {"last", events.empty() ? 0 : events.back().id}};
  text = brief.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // A stream name near its 1,000-byte limit still fits; guard anyway.
  return text.size() <= kMaxNotifyPayloadBytes ? text : std::string();
}

std::string PositionNotifyPayload(const std::vector<EventRef>& events) {
  return nlohmann::ordered_json{{"last", events.empty() ? 0 : events.back().id}}.dump();
}

}  // namespace act::core
