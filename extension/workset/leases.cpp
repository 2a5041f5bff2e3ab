// act.ack(leases) and act.block(leases): the drain's finalize steps
// (docs/reference.md, act.ack and act.block). Entries whose holder lost the lease are dropped.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "act/core/errors.hpp"
#include "act/core/subscription_input.hpp"
#include "act/core/text.hpp"
#include "arrays.hpp"
#include "counters.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "json_args.hpp"
#include "leases.hpp"
#include "primary_only.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"
#include "timestamps.hpp"
#include "workset/leases_sql.hpp"

namespace act::pg {
namespace {

const Oid kAckArgTypes[] = {TEXTARRAYOID, TEXTARRAYOID, INT8ARRAYOID, BOOLARRAYOID, INT4ARRAYOID, TIMESTAMPTZARRAYOID};
// `due` entries defer the row and keep (or set) retry; they are applied but not returned.
// Generic: a nested loop of pkey lookups whatever the array's length; left to
// choose, the plan cache planned every call anew (its custom plans looked
// cheaper), a sixth of an ack's time in the drain's profile.
SavedPlan g_ack_plan(leases_sql::kAck, 6, kAckArgTypes, PlanMode::kGeneric);

const Oid kBlockArgTypes[] = {TEXTARRAYOID, TEXTARRAYOID, TEXTARRAYOID, BOOLARRAYOID};
SavedPlan g_block_plan(leases_sql::kBlock, 4, kBlockArgTypes);

std::vector<core::LeaseEntry> ReadLeases(FunctionCallInfo fcinfo, core::LeaseUse use) {
  if (PG_ARGISNULL(0)) throw core::ValidationError("leases must not be null", core::sqlstate::kNullValueNotAllowed);
  return core::ParseLeases(JsonArgument(fcinfo, 0, "leases"), use);
}

// The highest id a worker could have read for this row: the horizon, or for
// a literal source the head of that stream (an exact-stream read returns
// every visible event of it, and later events of the stream get higher ids).
const Oid kReachArgTypes[] = {TEXTOID};
SavedPlan g_reach_plan(leases_sql::kReach, 1, kReachArgTypes);

// A watermark above what any read could have returned would skip events
// (an off-by-one, a stale id from another store): refused before anything is
// written. Rewinds stay allowed.
void RequireReachable(const std::vector<core::LeaseEntry>& leases, const char* what) {
  const int64 horizon = Horizon();
  for (std::size_t i = 0; i < leases.size(); ++i) {
    const core::LeaseEntry& lease = leases[i];
    if (lease.at <= horizon) continue;
    Datum args[1] = {MakeText(lease.stream)};
    Execute(g_reach_plan.Get(), args, nullptr, true, 0, SPI_OK_SELECT);
    std::optional<int64> source_head;
    if (RowCount() == 1) {
      const std::optional<std::string_view> source = RowText(0, 1);
      if (source && !core::IsPattern(*source)) source_head = RowInt64(0, 2);
    }
    if (!source_head || lease.at > *source_head)
      throw core::ValidationError(std::string(what) + ": at " + std::to_string(lease.at) + " for stream " +
                                  core::Quoted(lease.stream) + " is beyond act.horizon() (" +
                                  std::to_string(horizon) + "): no read could have reached it");
  }
}

TimestampTz DueOf(const core::LeaseEntry& lease) {
  if (lease.due_epoch_ms) return FromUnixMillis(*lease.due_epoch_ms);
  return ParseTimestamp(lease.due_text->c_str());
}

}  // namespace

void ApplyAcks(const std::vector<core::LeaseEntry>& leases, const char* what) {
  RequireReachable(leases, what);
  const std::size_t count = leases.size();
  std::vector<Datum> streams, bys, ats, laggings, retries, dues;
  auto retry_nulls = std::make_unique<bool[]>(count);
  auto due_nulls = std::make_unique<bool[]>(count);
  for (std::size_t i = 0; i < count; ++i) {
    const core::LeaseEntry& lease = leases[i];
    streams.push_back(MakeText(lease.stream));
    bys.push_back(MakeText(lease.by));
    ats.push_back(Int64GetDatum(lease.at));
    laggings.push_back(BoolGetDatum(lease.lagging));
    retries.push_back(Int32GetDatum(lease.retry.value_or(0)));
    retry_nulls[i] = !lease.retry;
    dues.push_back(lease.HasDue() ? TimestampTzGetDatum(DueOf(lease)) : Datum(0));
    due_nulls[i] = !lease.HasDue();
  }
  Datum args[6] = {MakeArray(streams, nullptr, TEXTOID),   MakeArray(bys, nullptr, TEXTOID),
                   MakeArray(ats, nullptr, INT8OID),       MakeArray(laggings, nullptr, BOOLOID),
                   MakeArray(retries, retry_nulls.get(), INT4OID),
                   MakeArray(dues, due_nulls.get(), TIMESTAMPTZOID)};
  Execute(g_ack_plan.Get(), args, nullptr, false, 0, SPI_OK_SELECT);
  Count(Counter::kAcks, RowCount());
}

}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_ack) {
  pg::RequirePrimary("act.ack");
  const std::vector<core::LeaseEntry> leases = pg::ReadLeases(fcinfo, core::LeaseUse::kAck);
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  if (!leases.empty()) {
    pg::ApplyAcks(leases);
    pg::EmitAllRows(result);
  }
  spi.Finish();
  return Datum(0);
}

ACT_SQL_FUNCTION(act_block) {
  pg::RequirePrimary("act.block");
  const std::vector<core::LeaseEntry> leases = pg::ReadLeases(fcinfo, core::LeaseUse::kBlock);
  std::vector<Datum> streams, bys, errors, laggings;
  for (const core::LeaseEntry& lease : leases) {
    streams.push_back(pg::MakeText(lease.stream));
    bys.push_back(pg::MakeText(lease.by));
    errors.push_back(pg::MakeText(lease.error));
    laggings.push_back(BoolGetDatum(lease.lagging));
  }
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  if (!leases.empty()) {
    Datum args[4] = {pg::MakeArray(streams, nullptr, TEXTOID), pg::MakeArray(bys, nullptr, TEXTOID),
                     pg::MakeArray(errors, nullptr, TEXTOID), pg::MakeArray(laggings, nullptr, BOOLOID)};
    pg::Execute(pg::g_block_plan.Get(), args, nullptr, false, 0, SPI_OK_SELECT);
    pg::Count(pg::Counter::kBlocks, pg::RowCount());
    pg::EmitAllRows(result);
  }
  spi.Finish();
  return Datum(0);
}
