#include "app/causation.hpp"

#include <cstdint>

namespace act::app_detail {

namespace {

nlohmann::json event_json(std::int64_t id, const std::string& name, const std::string& stream) {
  return {{"id", id}, {"name", name}, {"stream", stream}};
}

}  // namespace

nlohmann::json action_meta(const std::string& correlation, const std::string& action, const Target& target,
                           const std::optional<EventRef>& caused_by) {
  nlohmann::json meta = {{"correlation", correlation},
                         {"causation",
                          {{"action",
                            {{"name", action},
                             {"stream", target.stream},
                             {"actor", {{"id", target.actor.id}, {"name", target.actor.name}}}}}}}};
  if (caused_by) meta["causation"]["event"] = event_json(caused_by->id, caused_by->name, caused_by->stream);
  return meta;
}

nlohmann::json snapshot_meta(const std::string& correlation, const Committed& last) {
  return {{"correlation", correlation}, {"causation", {{"event", event_json(last.id, last.name, last.stream)}}}};
}

}  // namespace act::app_detail
