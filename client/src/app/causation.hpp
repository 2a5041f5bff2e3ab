#pragma once
// The meta every commit carries: a correlation id that ties a chain of
// commits together, and what caused this one.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "act/event.hpp"
#include "act/target.hpp"
#include "react/app_port.hpp"

namespace act::app_detail {

using react::EventRef;  // the event an action runs in reaction to

// {"correlation", "causation": {"action": {"name", "stream", "actor": {"id", "name"}}}}, plus
// "causation": {"event": {"id", "name", "stream"}} for an action a reaction runs.
nlohmann::json action_meta(const std::string& correlation, const std::string& action, const Target& target,
                           const std::optional<EventRef>& caused_by);

// {"correlation", "causation": {"event": {"id", "name", "stream"}}}: a snapshot is caused by the event it follows.
nlohmann::json snapshot_meta(const std::string& correlation, const Committed& last);

}  // namespace act::app_detail
