#pragma once
// Running the SQL core/boundary_query.hpp writes for a query: act.read's rows
// and act.append's condition check.
#include <optional>
#include <string>

#include "act/core/boundary_query.hpp"
#include "error_bridge.hpp"

namespace act::pg {

// Binds a query's parameters ($1 tags, $2 types, $3 after, $4 at most, $5
// limit, NULL for none) to its kept plan. Needs SPI.
struct BoundStatement {
  SPIPlanPtr plan = nullptr;
  Datum values[5] = {};
  char nulls[6] = "     ";
};
// Partitioned mode: a query may only need this partition's log. Every tag
// of an event lives where its stream does (RequireHostedTag at the write),
// so an item whose first tag this partition hosts finds all its matches
// here; an item without a tag could match anywhere and is refused (22023).
// `path` names the query in messages ("query", "condition.fail_if_events_match").
void RequireHostedBoundary(const core::Query& query, const std::string& path);

BoundStatement BindBoundaryQuery(const core::QuerySql& sql, int64 after, int64 at_most, std::optional<int64> limit);

}  // namespace act::pg
