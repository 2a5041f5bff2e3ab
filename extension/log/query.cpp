// act.query(...): event reads. Rows move from a cursor into the result in
// batches, so the function never holds the whole result (the result store
// spills to disk past work_mem).
#include <unordered_map>

#include "act/core/errors.hpp"
#include "act/core/event_query.hpp"
#include "hosted_partition.hpp"
#include "query.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "jsonb_access.hpp"
#include "pii_access.hpp"
#include "regex_cache.hpp"
#include "spi.hpp"
#include "stream_head.hpp"

namespace act::pg {

const Oid kEventQueryArgTypes[core::kEventQueryParamCount] = {TEXTOID,        INT8OID, INT8OID, TEXTARRAYOID, TIMESTAMPTZOID,
                                                              TIMESTAMPTZOID, TEXTOID, INT8OID, INT8OID, INT4OID};

namespace {

constexpr long kFetchBatch = 1000;

SPIPlanPtr PlanFor(const core::EventQuery& query) {
  static std::unordered_map<std::uint32_t, SPIPlanPtr> plans;
  const std::uint32_t key = query.Key();
  if (auto found = plans.find(key); found != plans.end()) return found->second;
  SPIPlanPtr plan = PrepareKept(core::EventQuerySql(query), core::kEventQueryParamCount, kEventQueryArgTypes);
  plans.emplace(key, plan);
  return plan;
}

// SQL argument positions of act.query (0-based).
enum Arg : int {
  kStream,
  kAfter,
  kBefore,
  kNames,
  kMaxEvents,
  kBackward,
  kStreamExact,
  kCreatedAfter,
  kCreatedBefore,
  kCorrelation,
  kWithSnaps
};

bool BoolArg(FunctionCallInfo fcinfo, int index, bool fallback) {
  return PG_ARGISNULL(index) ? fallback : PG_GETARG_BOOL(index);
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_query) {
  core::EventQuery query;
  query.stream = !PG_ARGISNULL(pg::kStream);
  query.stream_exact = pg::BoolArg(fcinfo, pg::kStreamExact, true);
  query.after = !PG_ARGISNULL(pg::kAfter);
  query.before = !PG_ARGISNULL(pg::kBefore);
  query.names = !PG_ARGISNULL(pg::kNames);
  query.created_after = !PG_ARGISNULL(pg::kCreatedAfter);
  query.created_before = !PG_ARGISNULL(pg::kCreatedBefore);
  query.correlation = !PG_ARGISNULL(pg::kCorrelation);
  query.with_snaps = pg::BoolArg(fcinfo, pg::kWithSnaps, false);
  query.backward = pg::BoolArg(fcinfo, pg::kBackward, false);
  // Fenced mode: commits become visible in id order, so every visible id is
  // already at or below the horizon and the cap would filter nothing.
  query.capped = pg::ConcurrentMode() && core::NeedsHorizonCap(query);
  query.hide_pii = !pg::CallerMayReadPii();
  query.from_version = query.stream && query.stream_exact && query.after;
  // Checked here so that the error names the argument, not an internal statement.
  if (query.stream && !query.stream_exact) pg::ValidatePattern(pg::TextArg(fcinfo, pg::kStream), "stream");
  if (query.stream && query.stream_exact) pg::RequireHostedStream(pg::TextArg(fcinfo, pg::kStream));

  long long max_events = 0;
  if (!PG_ARGISNULL(pg::kMaxEvents)) {
    max_events = PG_GETARG_INT32(pg::kMaxEvents);
    if (max_events < 0)
      throw core::ValidationError("max_events must be 0 (unlimited) or more, not " + std::to_string(max_events));
  }

  Datum values[core::kEventQueryParamCount] = {};
  char nulls[core::kEventQueryParamCount + 1];
  for (int i = 0; i < core::kEventQueryParamCount; ++i) nulls[i] = 'n';
  nulls[core::kEventQueryParamCount] = '\0';
  auto bind = [&](int param, int arg) {
    if (PG_ARGISNULL(arg)) return;
    values[param - 1] = PG_GETARG_DATUM(arg);
    nulls[param - 1] = ' ';
  };
  bind(core::kParamStream, pg::kStream);
  bind(core::kParamAfter, pg::kAfter);
  bind(core::kParamBefore, pg::kBefore);
  bind(core::kParamNames, pg::kNames);
  bind(core::kParamCreatedAfter, pg::kCreatedAfter);
  bind(core::kParamCreatedBefore, pg::kCreatedBefore);
  bind(core::kParamCorrelation, pg::kCorrelation);
  if (max_events > 0) {
    values[core::kParamLimit - 1] = Int64GetDatum(max_events);
    nulls[core::kParamLimit - 1] = ' ';
  }

  ReturnSetInfo* result = pg::Guard([fcinfo] {
    InitMaterializedSRF(fcinfo, 0);
    return reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  });

  pg::SpiSession spi;
  if (query.capped) {
    values[core::kParamHorizon - 1] = Int64GetDatum(pg::Horizon());
    nulls[core::kParamHorizon - 1] = ' ';
  }
  SPIPlanPtr plan = pg::PlanFor(query);
  // One stream after an id (never capped): the version bound and the rows
  // are read through one snapshot, taken now, pushed for the read-only
  // cursor. Otherwise not read-only: the cursor takes a snapshot now, after
  // the horizon was computed, so it sees every id at or below it (READ COMMITTED).
  const bool one_snapshot = query.from_version;
  if (one_snapshot) {
    pg::Guard([] {
      CommandCounterIncrement();  // as a statement of the function would: the transaction's writes are seen
      PushActiveSnapshot(GetTransactionSnapshot());
    });
    values[core::kParamFromVersion - 1] = Int32GetDatum(
        pg::FirstVersionAfter(PG_GETARG_DATUM(pg::kStream), PG_GETARG_INT64(pg::kAfter), pg::ScanSnapshot::kActive));
    nulls[core::kParamFromVersion - 1] = ' ';
  }
  Datum* value_ptr = values;
  const char* null_ptr = nulls;
  Portal cursor = pg::Guard([plan, value_ptr, null_ptr, one_snapshot] {
    return SPI_cursor_open(nullptr, plan, value_ptr, null_ptr, /*read_only=*/one_snapshot);
  });
  for (;;) {
    const uint64 fetched = pg::Guard([cursor, result] {
      SPI_cursor_fetch(cursor, true, pg::kFetchBatch);
      const uint64 count = SPI_processed;
      for (uint64 i = 0; i < count; ++i) tuplestore_puttuple(result->setResult, SPI_tuptable->vals[i]);
      SPI_freetuptable(SPI_tuptable);
      return count;
    });
    if (fetched < static_cast<uint64>(pg::kFetchBatch)) break;
  }
  pg::Guard([cursor, one_snapshot] {
    SPI_cursor_close(cursor);
    if (one_snapshot) PopActiveSnapshot();
  });
  spi.Finish();
  return Datum(0);
}
