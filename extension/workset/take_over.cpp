// act.take_over(successor, former, keep_name): a subscription row takes over
// another's watermark and the other is retired, in one transaction, so a
// renamed target or a target read from another source goes on from where it
// stopped (docs/reactions.md, "Moving a reaction").
#include <optional>
#include <string>

#include "act/core/errors.hpp"
#include "act/core/text.hpp"
#include "act/core/validation.hpp"
#include "arrays.hpp"
#include "error_bridge.hpp"
#include "jsonb_access.hpp"
#include "locks.hpp"
#include "primary_only.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"
#include "workset/take_over_sql.hpp"
#include "workset/widen_sql.hpp"

namespace act::pg {
namespace {

// Every statement runs on the latest snapshot (ExecuteOnLatest), under the
// registry lock: no commit marks either row or the former's class meanwhile.

const Oid kPairArgTypes[] = {TEXTOID, TEXTOID};
// Both rows locked in stream order: a claim or ack in flight is waited for,
// and two take-overs of the same pair cannot deadlock.
SavedPlan g_rows_plan(take_over_sql::kRows, 2, kPairArgTypes);
// The successor keeps its own source, names, lane, priority and work mark
// (back-filled for its source when subscribed) and takes the former's
// watermark, retry, block and deferral. Both lose their leases: a worker of
// the former version that still runs finds its acknowledgement dropped.
SavedPlan g_inherit_plan(take_over_sql::kInherit, 2, kPairArgTypes);
const Oid kStreamArgTypes[] = {TEXTOID};
SavedPlan g_retire_plan(take_over_sql::kRetire, 1, kStreamArgTypes);
SavedPlan g_rename_plan(take_over_sql::kRename, 2, kPairArgTypes);
// A class no row is left in would still cost every matching commit a mark
// (as after act.widen): it goes, with its marks.
const Oid kClassArgTypes[] = {INT4OID};
SavedPlan g_drop_class_plan(widen_sql::kDropClass, 1, kClassArgTypes);
const Oid kResultArgTypes[] = {TEXTOID, TEXTOID, TEXTOID};
SavedPlan g_result_plan(take_over_sql::kResult, 3, kResultArgTypes);

struct Pair {
  bool successor_found = false;
  bool former_found = false;
  std::optional<std::string> former_source;
  std::optional<int32> former_class;
};

Pair LockRows(Datum successor, Datum former, const std::string& former_name) {
  Datum args[2] = {successor, former};
  ExecuteOnLatest(g_rows_plan.Get(), args, nullptr, false, 0, SPI_OK_SELECT);
  Pair pair;
  for (uint64 row = 0; row < RowCount(); ++row) {
    const std::string stream(*RowText(row, 1));
    if (stream != former_name) {
      pair.successor_found = true;
      continue;
    }
    pair.former_found = true;
    if (auto source = RowText(row, 2)) pair.former_source = std::string(*source);
    pair.former_class = RowInt32(row, 3);
  }
  return pair;
}

std::string RequiredStream(FunctionCallInfo fcinfo, int argument, const char* name) {
  if (PG_ARGISNULL(argument))
    throw core::ValidationError(std::string(name) + " must not be null", core::sqlstate::kNullValueNotAllowed);
  std::string stream(TextArg(fcinfo, argument));
  core::ValidateStreamName(stream, name);
  return stream;
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_take_over) {
  pg::RequirePrimary("act.take_over");
  const std::string successor = pg::RequiredStream(fcinfo, 0, "successor");
  const std::string former = pg::RequiredStream(fcinfo, 1, "former");
  if (PG_ARGISNULL(2)) throw core::ValidationError("keep_name must not be null", core::sqlstate::kNullValueNotAllowed);
  const bool keep_name = PG_GETARG_BOOL(2);
  if (successor == former)
    throw core::ValidationError("successor and former are both " + core::Quoted(successor) +
                                ": a subscription cannot take over its own watermark");

  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  const Datum successor_datum = PG_GETARG_DATUM(0);
  const Datum former_datum = PG_GETARG_DATUM(1);
  pg::TakeRegistryExclusive();
  const pg::Pair pair = pg::LockRows(successor_datum, former_datum, former);
  if (!pair.successor_found)
    throw core::ValidationError("subscription " + core::Quoted(successor) +
                                " does not exist: act.subscribe creates it with its source and names first");
  if (!pair.former_found)
    throw core::ValidationError("former subscription " + core::Quoted(former) + " does not exist");
  Datum pair_args[2] = {successor_datum, former_datum};
  pg::ExecuteOnLatest(pg::g_inherit_plan.Get(), pair_args, nullptr, false, 0, SPI_OK_UPDATE);
  Datum former_args[1] = {former_datum};
  pg::ExecuteOnLatest(pg::g_retire_plan.Get(), former_args, nullptr, false, 0, SPI_OK_DELETE);
  if (pair.former_class) {
    Datum class_args[1] = {Int32GetDatum(*pair.former_class)};
    pg::ExecuteOnLatest(pg::g_drop_class_plan.Get(), class_args, nullptr, false, 0, SPI_OK_DELETE);
  }
  if (keep_name) pg::ExecuteOnLatest(pg::g_rename_plan.Get(), pair_args, nullptr, false, 0, SPI_OK_UPDATE);
  const Datum final_datum = keep_name ? former_datum : successor_datum;
  Datum result_args[3] = {final_datum, former_datum, pair.former_source ? pg::MakeText(*pair.former_source) : Datum(0)};
  const char result_nulls[4] = {' ', ' ', pair.former_source ? ' ' : 'n', '\0'};
  pg::ExecuteOnLatest(pg::g_result_plan.Get(), result_args, result_nulls, false, 0, SPI_OK_SELECT);
  pg::EmitAllRows(result);
  spi.Finish();
  return Datum(0);
}
