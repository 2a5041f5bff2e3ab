// SQL entry points of the horizon: act.horizon, act.wait, act.mode,
// act._inflight_holders (behind act.horizon_holders), act._before_taking_ids.
#include "act/core/errors.hpp"
#include "arrays.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "locks.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

using namespace act;

ACT_SQL_FUNCTION(act_horizon) {
  pg::SpiSession spi;
  const int64 horizon = pg::Horizon();
  spi.Finish();
  PG_RETURN_INT64(horizon);
}

ACT_SQL_FUNCTION(act_wait) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
    throw core::ValidationError("after and timeout_ms must not be null", core::sqlstate::kNullValueNotAllowed);
  const int64 after = PG_GETARG_INT64(0);
  const int32 timeout_ms = PG_GETARG_INT32(1);
  if (timeout_ms < 0) throw core::ValidationError("timeout_ms must be 0 or more, not " + std::to_string(timeout_ms));
  pg::SpiSession spi;
  const int64 horizon = pg::WaitForHorizon(after, timeout_ms);
  spi.Finish();
  PG_RETURN_INT64(horizon);
}

ACT_SQL_FUNCTION(act_mode) { return pg::MakeText(pg::ConcurrentMode() ? "concurrent" : "fenced"); }

ACT_SQL_FUNCTION(act_inflight_holders) {
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  for (const pg::InflightHolder& holder : pg::InflightHolders()) {
    Datum values[3] = {Int32GetDatum(holder.pid), TimestampTzGetDatum(holder.since), Int64GetDatum(holder.lowest_id)};
    bool nulls[3] = {false, false, false};
    Datum* value_ptr = values;
    bool* null_ptr = nulls;
    pg::Guard([result, value_ptr, null_ptr] {
      tuplestore_putvalues(result->setResult, result->setDesc, value_ptr, null_ptr);
    });
  }
  return Datum(0);
}

// For act.truncate, which takes ids outside act.commit. Publishing reads
// the sequence's page directly: no SPI.
ACT_SQL_FUNCTION(act_before_taking_ids) {
  if (!pg::ConcurrentMode()) pg::TakeCommitFence();
  pg::PublishInflight();  // no-op in fenced mode
  PG_RETURN_VOID();
}

// The commit fence's advisory lock tag as pg_locks shows it, so SQL looking
// for its holder does not repeat the numbers of locks.hpp.
ACT_SQL_FUNCTION(act_fence_lock_tag) {
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  Datum values[3] = {ObjectIdGetDatum(pg::kLockClassId), ObjectIdGetDatum(pg::kFenceObjectId),
                     Int16GetDatum(static_cast<int16>(pg::kGlobalLockKind))};
  bool nulls[3] = {false, false, false};
  Datum* value_ptr = values;
  bool* null_ptr = nulls;
  pg::Guard([result, value_ptr, null_ptr] { tuplestore_putvalues(result->setResult, result->setDesc, value_ptr, null_ptr); });
  return Datum(0);
}

// act._publish_inflight() of versions before 0.1.2 (their install scripts name it).
ACT_SQL_FUNCTION(act_publish_inflight) {
  pg::PublishInflight();
  PG_RETURN_VOID();
}
