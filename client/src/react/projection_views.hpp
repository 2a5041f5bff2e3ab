#pragma once
// Where a projection version's SQL runs, and the views the application reads
// the current version through (docs/reactions.md, "A new projection version").
#include <cstdint>
#include <string>
#include <vector>

#include "act/detail/reaction_model.hpp"
#include "act/sql.hpp"

namespace act::react {

// A later version's setup, truncate and handlers see only its own schema:
// an unqualified table is that version's, never the current one's. The
// first call of a transaction; nothing for version 1.
void enter_schema(Sql& sql, const detail::ProjectionModel& projection);
// The same as a statement text, for a caller that queues it.
std::string search_path_of(const std::string& schema);

// Creates the version's schema (before its setup runs in it).
void create_schema(Sql& sql, const detail::ProjectionModel& projection);

// Points the reading schema's views at version `current` of `name`: one
// view per relation of `shown` (relation names), reading the current
// version's relation of that name. replace: drop the views there first (a
// switch); otherwise only missing views are made (a start).
void show_version(Sql& sql, const std::string& name, std::int32_t current, const std::vector<std::string>& shown,
                  bool replace);

// The relations (tables, views) a later version has built in its schema.
std::vector<std::string> relations_of(Sql& sql, const std::string& schema);
// The views in the reading schema of `name`.
std::vector<std::string> shown_relations(Sql& sql, const std::string& name);

// Drops what version `version` built: its schema, or for version 1 the
// relations the reading schema shows, which version 1 built where its setup said.
void drop_built(Sql& sql, const std::string& name, std::int32_t version);

}  // namespace act::react
