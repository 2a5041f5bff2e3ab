#pragma once
// The meta every commit carries: a correlation id that ties a chain of
// commits together, and what caused this one.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "act/event.hpp"
#include "act/target.hpp"

namespace act::app_detail {

// The event an action runs in reaction to.
struct EventRef {
  std::int64_t id = 0;
  std::string name;
  std::string stream;
};

// A random RFC 4122 version 4 id.
std::string new_correlation_id();

// {"correlation", "causation": {"action": {"name", "stream", "actor": {"id", "name"}}}}, plus
// "causation": {"event": {"id", "name", "stream"}} for an action a reaction runs.
nlohmann::json action_meta(const std::string& correlation, const std::string& action, const Target& target,
                           const std::optional<EventRef>& caused_by);

// {"correlation", "causation": {"event": {"id", "name", "stream"}}}: a snapshot is caused by the event it follows.
nlohmann::json snapshot_meta(const std::string& correlation, const Committed& last);

}  // namespace act::app_detail
