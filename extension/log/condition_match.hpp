#pragma once
// The first event that fails an append's condition (docs/dcb.md): the
// lowest id after `after` matching an item of the query, through the latest
// snapshot (every committed row, and this transaction's own).
#include <optional>

#include "act/core/boundary_query.hpp"
#include "error_bridge.hpp"

namespace act::pg {

struct ConditionMatch {
  int64 id = 0;
  int64 item = 0;  // the first item the event matches
};

// Through tag_index.hpp when every item has a tag, else core::FirstMatchSql's SQL.
std::optional<ConditionMatch> FirstConditionMatch(const core::Query& query, int64 after);

}  // namespace act::pg
