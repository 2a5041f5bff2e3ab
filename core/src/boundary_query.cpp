#include "act/core/boundary_query.hpp"

#include <limits>

#include "act/core/errors.hpp"
#include "act/core/json_fields.hpp"
#include "act/core/tags.hpp"
#include "act/core/validation.hpp"

namespace act::core {
namespace {

std::vector<std::string> Strings(const nlohmann::json& list, const std::string& path) {
  std::vector<std::string> out;
  if (list.is_null()) return out;
  RequireArray(list, path);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string())
      throw ValidationError(path + "[" + std::to_string(i) + "] must be a string, not " + JsonTypeName(list[i]));
    out.push_back(list[i].get<std::string>());
  }
  return out;
}

QueryItem ParseItem(const nlohmann::json& input, const std::string& path) {
  RequireObject(input, path);
  RejectUnknownKeys(input, path, {"types", "tags"});
  QueryItem item;
  if (input.contains("types")) item.types = Strings(input["types"], path + ".types");
  for (std::size_t i = 0; i < item.types.size(); ++i) {
    const std::string at = path + ".types[" + std::to_string(i) + "]";
    if (item.types[i].empty()) throw ValidationError(at + " must not be empty");
    ValidateIndexedText(item.types[i], at, kMaxEventNameBytes);
  }
  if (input.contains("tags")) item.tags = Strings(input["tags"], path + ".tags");
  std::vector<TagInput> tags;
  for (const std::string& tag : item.tags) tags.push_back(TagInput{JsonKind::kString, tag});
  ValidateTags(path, JsonKind::kArray, tags);
  return item;
}

std::string Param(std::size_t position) { return std::to_string(position + 1); }

// One item's matches as "SELECT id, <index> AS item", in id order, at most $5.
std::string ItemSql(const QueryItem& item, std::size_t index, QuerySql& sql) {
  const std::size_t first_tag = sql.tags.size();
  const std::size_t first_type = sql.types.size();
  sql.tags.insert(sql.tags.end(), item.tags.begin(), item.tags.end());
  sql.types.insert(sql.types.end(), item.types.begin(), item.types.end());
  std::string text = "(SELECT e.id, " + std::to_string(index) + " AS item FROM ";
  if (item.tags.empty()) {
    text += "act.events e WHERE e.id > $3 AND e.id <= $4";
  } else {
    text += "act.event_tags t JOIN act.events e ON e.id = t.id WHERE t.tag = $1[" + Param(first_tag) +
            "] AND t.id > $3 AND t.id <= $4";
    for (std::size_t i = 1; i < item.tags.size(); ++i)
      text += " AND EXISTS (SELECT FROM act.event_tags x WHERE x.tag = $1[" + Param(first_tag + i) +
              "] AND x.id = t.id)";
  }
  if (!item.types.empty())
    text += " AND e.name = ANY ($2[" + Param(first_type) + ":" + Param(first_type + item.types.size() - 1) + "])";
  // Snapshots and tombstones are bookkeeping, never part of a decision.
  text += " AND e.name NOT IN ('__snapshot__', '__tombstone__') ORDER BY e.id LIMIT $5)";
  return text;
}

std::string ItemsUnion(const Query& query, QuerySql& sql) {
  std::string text;
  for (std::size_t i = 0; i < query.items.size(); ++i) {
    if (i > 0) text += " UNION ALL ";
    text += ItemSql(query.items[i], i, sql);
  }
  return text;
}

}  // namespace

Query ParseQuery(const nlohmann::json& input, const std::string& path) {
  RequireObject(input, path);
  RejectUnknownKeys(input, path, {"items"});
  if (!input.contains("items") || input["items"].is_null()) throw ValidationError(path + " has no \"items\"");
  const nlohmann::json& items = input["items"];
  RequireArray(items, path + ".items");
  if (items.size() > kMaxQueryItems)
    throw ValidationError(path + ".items has " + std::to_string(items.size()) + " items, more than " +
                          std::to_string(kMaxQueryItems));
  Query query;
  for (std::size_t i = 0; i < items.size(); ++i)
    query.items.push_back(ParseItem(items[i], path + ".items[" + std::to_string(i) + "]"));
  return query;
}

AppendCondition ParseCondition(const nlohmann::json& input) {
  AppendCondition condition;
  if (input.is_null()) return condition;
  const JsonFields fields(input, "condition", {"fail_if_events_match", "after", "expected_versions"});
  if (const nlohmann::json* query = fields.Find("fail_if_events_match"))
    condition.fail_if_events_match = ParseQuery(*query, fields.PathOf("fail_if_events_match"));
  condition.after = fields.OptionalInt("after", -1, std::numeric_limits<std::int64_t>::max());
  if (const nlohmann::json* versions = fields.Find("expected_versions")) {
    const std::string path = fields.PathOf("expected_versions");
    RequireObject(*versions, path);
    for (const auto& [stream, version] : versions->items()) {
      ValidateStreamName(stream, path + " key");
      const std::string at = path + "[\"" + stream + "\"]";
      if (!version.is_number_integer())
        throw ValidationError(at + " must be an integer, not " + JsonTypeName(version));
      const std::int64_t expected = version.get<std::int64_t>();
      if (expected < -1 || expected > std::numeric_limits<std::int32_t>::max())
        throw ValidationError(at + " must be -1 to " + std::to_string(std::numeric_limits<std::int32_t>::max()) +
                              ", not " + std::to_string(expected));
      condition.expected_versions.emplace(stream, expected);
    }
  }
  return condition;
}

QuerySql ReadSql(const Query& query) {
  QuerySql sql;
  const std::string items = ItemsUnion(query, sql);
  sql.text =
      "SELECT e.id, e.stream, e.version, e.name, e.data, e.meta, e.created, "
      "ARRAY(SELECT g.tag FROM act.event_tags g WHERE g.id = e.id ORDER BY g.ord) AS tags "
      "FROM act.events e WHERE e.id IN (SELECT m.id FROM (" +
      items + ") m) ORDER BY e.id LIMIT $5";
  return sql;
}

QuerySql FirstMatchSql(const Query& query) {
  QuerySql sql;
  sql.text = "SELECT m.id, m.item FROM (" + ItemsUnion(query, sql) + ") m ORDER BY m.id, m.item LIMIT 1";
  return sql;
}

}  // namespace act::core
