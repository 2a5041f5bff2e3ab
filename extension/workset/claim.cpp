// act.claim(from_lagging, from_leading, by, millis, lane): lease streams with
// work to one worker (docs/reference.md, act.claim). Reads only the work-set
// indexes and, for wide rows, each class's rows below its mark
// (docs/work-marks.md); locks only the chosen candidates, skipping rows
// other claimers hold.
#include "primary_only.hpp"
#include "claim.hpp"

#include <string>

#include "act/core/claim_plan.hpp"
#include "act/core/errors.hpp"
#include "claim_walk.hpp"
#include "counters.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "jsonb_access.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"
#include "work_marks.hpp"
#include "workset/claim_sql.hpp"

namespace act::pg {
namespace {

const Oid kClaimArgTypes[] = {INT4OID, INT4OID, INT4OID, TEXTOID, INT4OID, TEXTOID, INT8OID};
// On an older version's schema (before ALTER EXTENSION UPDATE to 0.2.1),
// which keeps wide marks per row, the claim is a statement: the wide marks
// are folded into the rows it reads first, rows another transaction holds
// left for a later claim. It is index-driven by construction; a custom plan
// per call would only add planning time. (From 0.2.1 on the claim is walked
// in C++: claim_walk.hpp.)
SavedPlan g_claim_plan(core::ClaimSql(false), 7, kClaimArgTypes, PlanMode::kGeneric);
SavedPlan g_claim_lane_plan(core::ClaimSql(true), 7, kClaimArgTypes, PlanMode::kGeneric);
const Oid kNoArgTypes[1] = {InvalidOid};
SavedPlan g_fold_plan(claim_sql::kFold, 0, kNoArgTypes);

// Claim rows carry retry (column 5): 0 on a first claim after an ack, more
// when the previous lease ended without one.
void CountClaimed() {
  uint64 retried = 0;
  for (uint64 row = 0; row < RowCount(); ++row)
    if (RowInt32(row, 5).value_or(0) > 0) ++retried;
  Count(Counter::kClaims, RowCount());
  Count(Counter::kRetries, retried);
}

}  // namespace

ClaimRequest ReadClaimArguments(FunctionCallInfo fcinfo) {
  for (int arg = 0; arg < 4; ++arg)
    if (PG_ARGISNULL(arg))
      throw core::ValidationError(std::string(core::kClaimArgumentNames[arg]) + " must not be null",
                                  core::sqlstate::kNullValueNotAllowed);
  ClaimRequest request;
  request.counts = core::PlanClaim(PG_GETARG_INT32(0), PG_GETARG_INT32(1));
  if (TextArg(fcinfo, 2).empty()) throw core::ValidationError("by must not be empty");
  request.by = PG_GETARG_DATUM(2);
  request.millis = PG_GETARG_INT32(3);
  core::ValidateLeaseMillis(request.millis);
  if (!PG_ARGISNULL(4)) request.lane = PG_GETARG_DATUM(4);
  return request;
}

void RunClaim(const ClaimRequest& request) {
  const std::optional<int64> horizon = ConcurrentMode() ? std::optional<int64>(Horizon()) : std::nullopt;
  if (MarksByClass()) {
    WalkClaim(request, horizon);
    CountClaimed();
    return;
  }
  Execute(g_fold_plan.Get(), nullptr, nullptr, false, 0, SPI_OK_UPDATE);
  const core::ClaimCounts& counts = request.counts;
  Datum args[7] = {
      Int32GetDatum(counts.priority), Int32GetDatum(counts.fairness),  Int32GetDatum(counts.leading),     request.by,
      Int32GetDatum(request.millis),  request.lane.value_or(Datum(0)), Int64GetDatum(horizon.value_or(0))};
  const char nulls[8] = {' ', ' ', ' ', ' ', ' ', request.lane ? ' ' : 'n', horizon ? ' ' : 'n', '\0'};
  Execute((request.lane ? g_claim_lane_plan : g_claim_plan).Get(), args, nulls, false, 0, SPI_OK_SELECT);
  CountClaimed();
}

}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_claim) {
  pg::RequirePrimary("act.claim");
  const pg::ClaimRequest request = pg::ReadClaimArguments(fcinfo);
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  if (request.counts.Total() > 0) {
    pg::RunClaim(request);
    pg::EmitAllRows(result);
  }
  spi.Finish();
  return Datum(0);
}
