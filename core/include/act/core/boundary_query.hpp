#pragma once
// Consistency boundaries (docs/dcb.md): the query of act.read and of an
// append condition, the condition itself, and the SQL that finds matches.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace act::core {

inline constexpr std::size_t kMaxQueryItems = 64;

// An event matches an item when its name is one of `types` (empty: any) and
// it carries every tag of `tags`; a query matches when any item does.
struct QueryItem {
  std::vector<std::string> types;
  std::vector<std::string> tags;
};
struct Query {
  std::vector<QueryItem> items;
};

// {"items": [{"types": [...], "tags": [...]}, ...]}; `path` names the
// argument in messages ("query", "condition.fail_if_events_match").
Query ParseQuery(const nlohmann::json& input, const std::string& path);

// act.append's condition; JSON null is no condition.
struct AppendCondition {
  std::optional<Query> fail_if_events_match;
  std::optional<std::int64_t> after;
  std::map<std::string, std::int64_t> expected_versions;  // by stream name, sorted
};
AppendCondition ParseCondition(const nlohmann::json& input);

// SQL for a query, with the parameters it takes: $1 text[] (`tags`), $2
// text[] (`types`), $3 bigint (ids above), $4 bigint (ids at most), $5
// bigint (the most rows, NULL for all). Items with a tag start from the tag
// index (act.event_tags (tag, id)), so their cost follows the matches, not
// the log.
struct QuerySql {
  std::string text;
  std::vector<std::string> tags;
  std::vector<std::string> types;
};
// Rows (id, stream, version, name, data, meta, created, tags) in id order.
QuerySql ReadSql(const Query& query);
// At most one row (id, item): the first matching event, and the first item it matches.
QuerySql FirstMatchSql(const Query& query);

}  // namespace act::core
