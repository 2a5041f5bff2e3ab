#include "claim_rows.hpp"

#include <algorithm>

#include "relations.hpp"

namespace act::pg {

ClaimColumns ClaimColumnsOf(Relation table) {
  ClaimColumns columns{};
  columns.stream = ColumnNumber(table, "stream");
  columns.priority = ColumnNumber(table, "priority");
  columns.at = ColumnNumber(table, "at");
  columns.correlated_at = ColumnNumber(table, "correlated_at");
  columns.blocked = ColumnNumber(table, "blocked");
  columns.leased_by = ColumnNumber(table, "leased_by");
  columns.leased_until = ColumnNumber(table, "leased_until");
  columns.deferred_at = ColumnNumber(table, "deferred_at");
  columns.wide_class = ColumnNumber(table, "class");
  columns.class_floor = ColumnNumber(table, "class_floor");
  columns.last =
      std::max({columns.stream, columns.priority, columns.at, columns.correlated_at, columns.blocked, columns.leased_by,
                columns.leased_until, columns.deferred_at, columns.wide_class, columns.class_floor});
  return columns;
}

}  // namespace act::pg
