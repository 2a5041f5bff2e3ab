// act.ack(leases) and act.block(leases): the drain's finalize steps
// (reference §2.6, §2.7). Entries whose holder lost the lease are dropped.
#include <memory>
#include <vector>

#include "act/core/errors.hpp"
#include "act/core/subscription_input.hpp"
#include "arrays.hpp"
#include "error_bridge.hpp"
#include "json_args.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"
#include "timestamps.hpp"

namespace act::pg {
namespace {

const Oid kAckArgTypes[] = {TEXTARRAYOID, TEXTARRAYOID, INT8ARRAYOID, BOOLARRAYOID, INT4ARRAYOID, TIMESTAMPTZARRAYOID};
// `due` entries defer the row and keep (or set) retry; they are applied but not returned.
SavedPlan g_ack_plan(
    "WITH acked AS ("
    "  UPDATE act.subscription_rows s SET at = i.at, leased_by = NULL, leased_until = NULL, deferred_at = i.due,"
    "    retry = CASE WHEN i.due IS NULL THEN -1 ELSE coalesce(i.retry, s.retry) END"
    "  FROM unnest($1, $2, $3, $4, $5, $6) AS i(stream, by, at, lagging, retry, due)"
    "  WHERE s.stream = i.stream AND s.leased_by = i.by"
    "  RETURNING s.stream, s.source, s.at, i.by, s.retry, i.lagging, s.lane, i.due"
    ") SELECT stream, source, at, by, retry, lagging, lane FROM acked WHERE due IS NULL ORDER BY stream",
    6, kAckArgTypes);

const Oid kBlockArgTypes[] = {TEXTARRAYOID, TEXTARRAYOID, TEXTARRAYOID, BOOLARRAYOID};
SavedPlan g_block_plan(
    "WITH blocked AS ("
    "  UPDATE act.subscription_rows s SET blocked = true, error = i.error, deferred_at = NULL"
    "  FROM unnest($1, $2, $3, $4) AS i(stream, by, error, lagging)"
    "  WHERE s.stream = i.stream AND s.leased_by = i.by AND NOT s.blocked"
    "  RETURNING s.stream, s.source, s.at, i.by, s.retry, s.error, i.lagging, s.lane"
    ") SELECT * FROM blocked ORDER BY stream",
    4, kBlockArgTypes);

std::vector<core::LeaseEntry> ReadLeases(FunctionCallInfo fcinfo, core::LeaseUse use) {
  if (PG_ARGISNULL(0)) throw core::ValidationError("leases must not be null", core::sqlstate::kNullValueNotAllowed);
  return core::ParseLeases(JsonArgument(fcinfo, 0, "leases"), use);
}

TimestampTz DueOf(const core::LeaseEntry& lease) {
  if (lease.due_epoch_ms) return FromUnixMillis(*lease.due_epoch_ms);
  return ParseTimestamp(lease.due_text->c_str());
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_ack) {
  const std::vector<core::LeaseEntry> leases = pg::ReadLeases(fcinfo, core::LeaseUse::kAck);
  const std::size_t count = leases.size();
  std::vector<Datum> streams, bys, ats, laggings, retries, dues;
  auto retry_nulls = std::make_unique<bool[]>(count);
  auto due_nulls = std::make_unique<bool[]>(count);
  for (std::size_t i = 0; i < count; ++i) {
    const core::LeaseEntry& lease = leases[i];
    streams.push_back(pg::MakeText(lease.stream));
    bys.push_back(pg::MakeText(lease.by));
    ats.push_back(Int64GetDatum(lease.at));
    laggings.push_back(BoolGetDatum(lease.lagging));
    retries.push_back(Int32GetDatum(lease.retry.value_or(0)));
    retry_nulls[i] = !lease.retry;
    dues.push_back(lease.HasDue() ? TimestampTzGetDatum(pg::DueOf(lease)) : Datum(0));
    due_nulls[i] = !lease.HasDue();
  }
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  if (count > 0) {
    Datum args[6] = {pg::MakeArray(streams, nullptr, TEXTOID),  pg::MakeArray(bys, nullptr, TEXTOID),
                     pg::MakeArray(ats, nullptr, INT8OID),      pg::MakeArray(laggings, nullptr, BOOLOID),
                     pg::MakeArray(retries, retry_nulls.get(), INT4OID),
                     pg::MakeArray(dues, due_nulls.get(), TIMESTAMPTZOID)};
    pg::Execute(pg::g_ack_plan.Get(), args, nullptr, false, 0, SPI_OK_SELECT);
    pg::EmitAllRows(result);
  }
  spi.Finish();
  return Datum(0);
}

ACT_SQL_FUNCTION(act_block) {
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
    pg::EmitAllRows(result);
  }
  spi.Finish();
  return Datum(0);
}
