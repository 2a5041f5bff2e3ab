#include "backfill.hpp"

#include "act/core/subscription_input.hpp"
#include "arrays.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"
#include "workset/backfill_sql.hpp"

namespace act::pg {
namespace {

// Every statement runs on the latest snapshot (ExecuteOnLatest): under
// REPEATABLE READ a back-fill on the transaction's snapshot would miss
// events committed before this call, and the registry lock is what decides
// which commits it must see (docs/work-marks.md).

// The highest existing event that is work for the row (never a snapshot or tombstone).
const Oid kBackfillArgTypes[] = {TEXTARRAYOID, TEXTOID};
SavedPlan g_backfill_all_plan(backfill_sql::kBackfillAll, 2, kBackfillArgTypes);
SavedPlan g_backfill_literal_plan(backfill_sql::kBackfillLiteral, 2, kBackfillArgTypes);
SavedPlan g_backfill_pattern_plan(backfill_sql::kBackfillPattern, 2, kBackfillArgTypes);

const Oid kMarkArgTypes[] = {TEXTOID, INT8OID};
SavedPlan g_backfill_mark_plan(backfill_sql::kBackfillMark, 2, kMarkArgTypes);

// With the registry lock held exclusively no commit moves a class's mark meanwhile.
const Oid kFloorArgTypes[] = {TEXTARRAYOID};
SavedPlan g_class_floor_plan(backfill_sql::kClassFloor, 1, kFloorArgTypes);

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
