#include "react/projection_views.hpp"

#include <optional>

#include "act/projection_version.hpp"

namespace act::react {
namespace {

std::string quoted(const std::string& identifier) {
  std::string text = "\"";
  for (const char c : identifier) text += c == '"' ? std::string("\"\"") : std::string(1, c);
  return text + "\"";
}

// Version 1's relation of that name, where the default search_path finds it
// (schema-qualified), or nothing when there is none.
std::optional<std::string> first_version_relation(Sql& sql, const std::string& relation) {
  const SqlResult found = sql.exec(
      "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "WHERE c.oid = to_regclass(quote_ident($1))",
      {relation});
  if (found.empty()) return std::nullopt;
  return quoted(found.front().text(0)) + "." + quoted(found.front().text(1));
}

std::optional<std::string> source_of(Sql& sql, const std::string& name, std::int32_t version,
                                     const std::string& relation) {
  if (version == 1) return first_version_relation(sql, relation);
  return quoted(projection_version_schema(name, version)) + "." + quoted(relation);
}

std::vector<std::string> names_in(Sql& sql, const std::string& query, const std::string& schema) {
  std::vector<std::string> names;
  for (const SqlRow& row : sql.exec(query, {schema})) names.push_back(row.text(0));
  return names;
}

}  // namespace

std::string search_path_of(const std::string& schema) { return "SET LOCAL search_path TO " + quoted(schema); }

void enter_schema(Sql& sql, const detail::ProjectionModel& projection) {
  if (!projection.schema.empty()) sql.exec(search_path_of(projection.schema));
}

void create_schema(Sql& sql, const detail::ProjectionModel& projection) {
  if (!projection.schema.empty()) sql.exec("CREATE SCHEMA IF NOT EXISTS " + quoted(projection.schema));
}

std::vector<std::string> relations_of(Sql& sql, const std::string& schema) {
  return names_in(sql,
                  "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                  "WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'p', 'f') ORDER BY 1",
                  schema);
}

std::vector<std::string> shown_relations(Sql& sql, const std::string& name) {
  return names_in(sql, "SELECT viewname FROM pg_views WHERE schemaname = $1 ORDER BY 1",
                  projection_reading_schema(name));
}

void show_version(Sql& sql, const std::string& name, std::int32_t current, const std::vector<std::string>& shown,
                  bool replace) {
  const std::string reading = projection_reading_schema(name);
  sql.exec("CREATE SCHEMA IF NOT EXISTS " + quoted(reading));
  if (replace) {
    for (const std::string& view : shown_relations(sql, name))
      sql.exec("DROP VIEW " + quoted(reading) + "." + quoted(view));
  }
  for (const std::string& relation : shown) {
    const std::string view = quoted(reading) + "." + quoted(relation);
    if (!replace && !sql.exec("SELECT 1 WHERE to_regclass($1) IS NOT NULL", {view}).empty()) continue;
    const std::optional<std::string> source = source_of(sql, name, current, relation);
    if (!source) continue;  // the current version has no such relation: nothing to show under that name
    sql.exec("CREATE VIEW " + view + " AS SELECT * FROM " + *source);
  }
}

void drop_built(Sql& sql, const std::string& name, std::int32_t version) {
  if (version != 1) {
    sql.exec("DROP SCHEMA IF EXISTS " + quoted(projection_version_schema(name, version)) + " CASCADE");
    return;
  }
  for (const std::string& relation : shown_relations(sql, name)) {
    const std::optional<std::string> built = first_version_relation(sql, relation);
    if (!built) continue;
    const bool is_view =
        sql.exec("SELECT relkind FROM pg_class WHERE oid = to_regclass($1)", {*built}).front().text(0) == "v";
    sql.exec(std::string(is_view ? "DROP VIEW " : "DROP TABLE ") + *built + " CASCADE");
  }
}

}  // namespace act::react
