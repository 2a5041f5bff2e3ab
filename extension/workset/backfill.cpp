#include "backfill.hpp"

#include "act/core/subscription_input.hpp"
#include "arrays.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

namespace act::pg {
namespace {

// Every statement runs on the latest snapshot (ExecuteOnLatest): under
// REPEATABLE READ a back-fill on the transaction's snapshot would miss
// events committed before this call, and the registry lock is what decides
// which commits it must see (docs/work-marks.md).

// The highest existing event that is work for the row (never a snapshot or tombstone).
const Oid kBackfillArgTypes[] = {TEXTARRAYOID, TEXTOID};
SavedPlan g_backfill_all_plan(
    "SELECT e.id FROM act.events e WHERE e.name <> ALL ('{__snapshot__,__tombstone__}') "
    "AND ($1 IS NULL OR e.name = ANY ($1)) ORDER BY e.id DESC LIMIT 1",
    2, kBackfillArgTypes);
SavedPlan g_backfill_literal_plan(
    "SELECT e.id FROM act.events e WHERE e.stream = $2 AND e.name <> ALL ('{__snapshot__,__tombstone__}') "
    "AND ($1 IS NULL OR e.name = ANY ($1)) ORDER BY e.version DESC LIMIT 1",
    2, kBackfillArgTypes);
SavedPlan g_backfill_pattern_plan(
    "SELECT e.id FROM act.events e WHERE e.stream COLLATE \"C\" ~ $2 AND e.name <> ALL ('{__snapshot__,__tombstone__}') "
    "AND ($1 IS NULL OR e.name = ANY ($1)) ORDER BY e.id DESC LIMIT 1",
    2, kBackfillArgTypes);

const Oid kMarkArgTypes[] = {TEXTOID, INT8OID};
SavedPlan g_backfill_mark_plan(
    "UPDATE act.subscription_rows s SET correlated_at = $2 "
    "WHERE s.stream = $1 AND (s.correlated_at IS NULL OR s.correlated_at < $2)",
    2, kMarkArgTypes);

// With the registry lock held exclusively no commit moves a class's mark meanwhile.
const Oid kFloorArgTypes[] = {TEXTARRAYOID};
SavedPlan g_class_floor_plan(
    "UPDATE act.subscription_rows r SET class_floor = k.mark "
    "FROM (SELECT m.class, max(m.mark) AS mark FROM act.wide_marks m GROUP BY m.class) k "
    "WHERE r.stream = ANY ($1) AND r.class = k.class AND k.mark > coalesce(r.correlated_at, -1)",
    1, kFloorArgTypes);

}  // namespace

void Backfill(std::string_view stream, const std::optional<std::string>& source,
              const std::optional<std::vector<std::string>>& names) {
  Datum args[2] = {names ? MakeTextArray(*names) : Datum(0), source ? MakeText(*source) : Datum(0)};
  const char nulls[3] = {names ? ' ' : 'n', source ? ' ' : 'n', '\0'};
  SavedPlan& plan = !source                    ? g_backfill_all_plan
                    : core::IsPattern(*source) ? g_backfill_pattern_plan
                                               : g_backfill_literal_plan;
  ExecuteOnLatest(plan.Get(), args, nulls, false, 1, SPI_OK_SELECT);
  if (RowCount() == 0) return;
  Datum mark_args[2] = {MakeText(stream), Int64GetDatum(*RowInt64(0, 1))};
  ExecuteOnLatest(g_backfill_mark_plan.Get(), mark_args, nullptr, false, 0, SPI_OK_UPDATE);
}

void SetClassFloors(const std::vector<std::string>& streams) {
  Datum args[1] = {MakeTextArray(streams)};
  ExecuteOnLatest(g_class_floor_plan.Get(), args, nullptr, false, 0, SPI_OK_UPDATE);
}

}  // namespace act::pg
