#include "act/boundary.hpp"

namespace act {

nlohmann::json EventQuery::to_json() const {
  nlohmann::json json_items = nlohmann::json::array();
  for (const QueryItem& item : items) {
    nlohmann::json json_item = nlohmann::json::object();
    if (!item.types.empty()) json_item["types"] = item.types;
    if (!item.tags.empty()) json_item["tags"] = item.tags;
    json_items.push_back(std::move(json_item));
  }
  return {{"items", std::move(json_items)}};
}

nlohmann::json AppendCondition::to_json() const {
  nlohmann::json json = nlohmann::json::object();
  if (fail_if_events_match) json["fail_if_events_match"] = fail_if_events_match->to_json();
  if (after) json["after"] = *after;
  if (!expected_versions.empty()) json["expected_versions"] = expected_versions;
  return json;
}

}  // namespace act
