// act.widen(stream, names): adds event names to an existing subscription row
// and back-fills its work mark for them, as act.subscribe back-fills a new
// row (docs/reference.md, act.widen).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "act/core/errors.hpp"
#include "act/core/subscription_input.hpp"
#include "act/core/text.hpp"
#include "act/core/validation.hpp"
#include "arrays.hpp"
#include "backfill.hpp"
#include "error_bridge.hpp"
#include "hosted_partition.hpp"
#include "json_args.hpp"
#include "jsonb_access.hpp"
#include "locks.hpp"
#include "primary_only.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"
#include "workset/widen_sql.hpp"

namespace act::pg {
namespace {

// Every statement runs on the latest snapshot (ExecuteOnLatest): once the
// registry lock has let every commit in flight end, the row and the log as
// they are now decide what the widen must cover (docs/work-marks.md).

const Oid kStreamArgTypes[] = {TEXTOID};
SavedPlan g_row_plan(widen_sql::kRow, 1, kStreamArgTypes);
// Under the registry lock: a claim or ack of the row in flight is waited for.
SavedPlan g_locked_row_plan(widen_sql::kLockedRow, 1, kStreamArgTypes);

// The class of a wide row's new (source, names), created when missing; ids
// are max + 1, safe under the registry lock held exclusively (as at subscribe).
const Oid kClassArgTypes[] = {TEXTOID, TEXTARRAYOID};
SavedPlan g_class_plan(widen_sql::kClass, 2, kClassArgTypes);

// The row takes its new names (and class), keeps as its stored mark the work
// mark it had (the old class's counted in: the mark never falls), and loses
// its lease: a worker that claimed it before read the events of the old names
// only, and its ack, which would move the watermark past events of the added
// names it never saw, is dropped; the row is claimed again from its watermark.
const Oid kMoveArgTypes[] = {TEXTOID, TEXTARRAYOID, INT4OID};
SavedPlan g_move_plan(widen_sql::kMove, 3, kMoveArgTypes);

// A class no row is left in would still cost every matching commit a mark:
// it goes, with its marks. Under the registry lock no commit is marking it.
const Oid kDropClassArgTypes[] = {INT4OID};
SavedPlan g_drop_class_plan(widen_sql::kDropClass, 1, kDropClassArgTypes);

const Oid kResultArgTypes[] = {TEXTOID, TEXTARRAYOID};
SavedPlan g_result_plan(widen_sql::kResult, 2, kResultArgTypes);

struct StoredRow {
  std::optional<std::string> source;
  std::optional<std::vector<std::string>> names;  // NULL: every name
  std::optional<int32> wide_class;
};

StoredRow ReadRow(SavedPlan& plan, Datum stream, const std::string& name) {
  Datum args[1] = {stream};
  ExecuteOnLatest(plan.Get(), args, nullptr, false, 0, SPI_OK_SELECT);
  if (RowCount() == 0)
    throw core::ValidationError("subscription " + core::Quoted(name) +
                                " does not exist: act.subscribe creates it with its names");
  StoredRow row;
  if (auto source = RowText(0, 1)) row.source = std::string(*source);
  row.names = RowTextArray(0, 2);
  row.wide_class = RowInt32(0, 3);
  return row;
}

// The given names the row does not select yet, in the order given.
std::vector<std::string> Missing(const StoredRow& row, const std::vector<std::string>& names) {
  std::vector<std::string> missing;
  if (!row.names) return missing;  // every name already
  for (const std::string& name : names)
    if (std::find(row.names->begin(), row.names->end(), name) == row.names->end()) missing.push_back(name);
  return missing;
}

std::optional<int32> ClassOf(const std::optional<std::string>& source, Datum names) {
  Datum args[2] = {source ? MakeText(*source) : Datum(0), names};
  const char nulls[3] = {source ? ' ' : 'n', ' ', '\0'};
  ExecuteOnLatest(g_class_plan.Get(), args, nulls, false, 0, SPI_OK_SELECT);
  return RowInt32(0, 1);
}

// Adds `added` to the row (locked, registry held exclusively) and back-fills it.
void Widen(Datum stream, const std::string& name, const StoredRow& row, const std::vector<std::string>& added) {
  std::vector<std::string> names = *row.names;
  names.insert(names.end(), added.begin(), added.end());
  const Datum names_datum = MakeTextArray(names);
  // A wide row moves to the class of its new names: commits mark classes.
  const bool wide = row.wide_class.has_value();
  const std::optional<int32> new_class = wide ? ClassOf(row.source, names_datum) : std::nullopt;
  if (wide && !new_class) throw core::SqlError(core::sqlstate::kInternalError, "act.widen found no class to move to");
  Datum move_args[3] = {stream, names_datum, new_class ? Int32GetDatum(*new_class) : Datum(0)};
  const char move_nulls[4] = {' ', ' ', new_class ? ' ' : 'n', '\0'};
  ExecuteOnLatest(g_move_plan.Get(), move_args, move_nulls, false, 0, SPI_OK_UPDATE);
  // Only the added names: the mark kept above covers the others already.
  Backfill(name, row.source, added);
  if (!wide) return;
  SetClassFloors({name});
  Datum drop_args[1] = {Int32GetDatum(*row.wide_class)};
  ExecuteOnLatest(g_drop_class_plan.Get(), drop_args, nullptr, false, 0, SPI_OK_DELETE);
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_widen) {
  pg::RequirePrimary("act.widen");
  if (PG_ARGISNULL(0)) throw core::ValidationError("stream must not be null", core::sqlstate::kNullValueNotAllowed);
  const std::string stream(pg::TextArg(fcinfo, 0));
  core::ValidateStreamName(stream);
  if (PG_ARGISNULL(1)) throw core::ValidationError("names must not be null", core::sqlstate::kNullValueNotAllowed);
  const std::vector<std::string> names = core::ParseAddedNames(pg::JsonArgument(fcinfo, 1, "names"));

  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  const Datum stream_datum = PG_GETARG_DATUM(0);
  pg::StoredRow row = pg::ReadRow(pg::g_row_plan, stream_datum, stream);
  std::vector<std::string> added = pg::Missing(row, names);
  if (!added.empty()) {
    // As at subscribe: every commit in flight ends before the back-fill
    // reads the log, and every later one waits and then marks by the new
    // names, so a widen and a commit never miss each other.
    pg::TakeRegistryExclusive();
    row = pg::ReadRow(pg::g_locked_row_plan, stream_datum, stream);
    // A row with a literal source lives in that stream's partition; checked
    // under the registry lock, which act.set_partition takes too.
    if (row.source && !core::IsPattern(*row.source)) pg::RequireHostedStream(*row.source);
    added = pg::Missing(row, names);  // a widen that ran meanwhile may have added some
    if (!added.empty()) pg::Widen(stream_datum, stream, row, added);
  }
  Datum result_args[2] = {stream_datum, pg::MakeTextArray(added)};
  pg::ExecuteOnLatest(pg::g_result_plan.Get(), result_args, nullptr, false, 0, SPI_OK_SELECT);
  pg::EmitAllRows(result);
  spi.Finish();
  return Datum(0);
}
