#pragma once
// What a claim knows of one version of an act.subscription_rows row, and the
// conditions it claims by (docs/work-marks.md): the work-set indexes'
// predicate, a wide row's work under its class's mark, and availability.
#include <optional>

#include "error_bridge.hpp"

namespace act::pg {

// The attribute numbers of the columns a claim decides by.
struct ClaimColumns {
  int stream, priority, at, correlated_at, blocked, leased_by, leased_until, deferred_at, wide_class, class_floor;
  int last;  // the highest of them: rows are deformed up to it
};

// Looks them up in an open act.subscription_rows.
ClaimColumns ClaimColumnsOf(Relation table);

struct ClaimRow {
  int32 priority = 0;
  int64 at = 0;
  std::optional<int64> correlated_at;
  bool blocked = false;
  bool leased = false;  // leased_by set
  TimestampTz leased_until = 0;
  std::optional<TimestampTz> deferred_at;
  std::optional<int32> wide_class;
  std::optional<int64> class_floor;
};

// `read(column, &is_null)` gives a column's Datum.
template <typename Read>
ClaimRow ReadClaimRow(const ClaimColumns& columns, Read read) {
  ClaimRow row;
  bool is_null = false;
  row.priority = DatumGetInt32(read(columns.priority, &is_null));
  row.at = DatumGetInt64(read(columns.at, &is_null));
  Datum value = read(columns.correlated_at, &is_null);
  if (!is_null) row.correlated_at = DatumGetInt64(value);
  row.blocked = DatumGetBool(read(columns.blocked, &is_null));
  read(columns.leased_by, &is_null);
  row.leased = !is_null;
  value = read(columns.leased_until, &is_null);
  row.leased_until = is_null ? DT_NOBEGIN : DatumGetTimestampTz(value);
  value = read(columns.deferred_at, &is_null);
  if (!is_null) row.deferred_at = DatumGetTimestampTz(value);
  value = read(columns.wide_class, &is_null);
  if (!is_null) row.wide_class = DatumGetInt32(value);
  value = read(columns.class_floor, &is_null);
  if (!is_null) row.class_floor = DatumGetInt64(value);
  return row;
}

// A wide class's highest mark in act.wide_marks.
struct ClassMark {
  int32 wide_class;
  int64 mark;
};

// The work-set indexes' predicate (sql/predicates/work_set.sql).
inline bool HasStoredWork(const ClaimRow& row) {
  return !row.blocked && row.correlated_at && row.at < *row.correlated_at;
}

// A wide row's work from its class's mark, counted above the row's
// class_floor; a row whose stored mark is above its watermark is claimed
// from the work set instead (sql/predicates/class_rows.sql is the rest).
inline bool HasClassWork(const ClaimRow& row, const ClassMark& mark) {
  return !row.blocked && row.wide_class == mark.wide_class && row.at < mark.mark &&
         mark.mark > row.class_floor.value_or(-1) && (!row.correlated_at || row.at >= *row.correlated_at);
}

// Not leased (or the lease ran out), not deferred, and in concurrent mode
// below the horizon: a stream whose next events are not all visible yet is
// not worth a lease.
inline bool Available(const ClaimRow& row, TimestampTz now, std::optional<int64> horizon) {
  if (row.leased && row.leased_until > now) return false;
  if (row.deferred_at && *row.deferred_at > now) return false;
  return !horizon || row.at < *horizon;
}

}  // namespace act::pg
