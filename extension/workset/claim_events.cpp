// act.claim_events(from_lagging, from_leading, by, millis, lane, max_events,
// acks, max_bytes, wait_millis): a worker's whole drain cycle in one round trip
// and one transaction: the last batch's acks, then act.claim's claim (waiting
// up to wait_millis for a commit when it finds nothing), then each claimed
// stream's events after its watermark (docs/sql.md "Draining in one call").
#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "primary_only.hpp"
#include "act/core/errors.hpp"
#include "act/core/subscription_input.hpp"
#include "arrays.hpp"
#include "claim.hpp"
#include "claim_wait.hpp"
#include "drain_events.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "json_args.hpp"
#include "leases.hpp"
#include "pii_access.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

extern "C" {
#include "utils/datum.h"
#include "workset/claim_events_sql.hpp"
}

namespace act::pg {
namespace {

enum Arg : int { kFromLagging, kFromLeading, kBy, kMillis, kLane, kMaxEvents, kAcks, kMaxBytes, kWaitMillis };

// The SQL default of max_bytes, also used when the function is still declared
// without it (the library updated, ALTER EXTENSION UPDATE not run yet).
constexpr int64 kDefaultMaxBytes = 16 * 1024 * 1024;
// A budget above this acts as this: jsonb refuses an array of more than
// 256 MB (JENTRY_OFFLENMASK), and EventBytes is an upper bound.
constexpr int64 kMaxBatchBytes = 255 * 1024 * 1024;

struct ClaimedRow {
  Datum stream, source, at, by, retry, lagging, lane;
  bool source_null = false;
  std::optional<std::vector<std::string>> names;
};

using Names = std::optional<std::vector<std::string>>;

// The names filters of the claimed rows, read once for all of them.
const Oid kNamesArgTypes[] = {TEXTARRAYOID};
// Generic: pkey lookups whatever the array's length, planned once.
SavedPlan g_names_plan(claim_events_sql::kNames, 1, kNamesArgTypes, PlanMode::kGeneric);

// Copies the claim's rows out of SPI memory (the event queries reuse it).
std::vector<ClaimedRow> TakeClaimedRows() {
  std::vector<ClaimedRow> rows;
  for (uint64 i = 0; i < RowCount(); ++i) {
    ClaimedRow row{};
    Datum* columns[] = {&row.stream, &row.source, &row.at, &row.by, &row.retry, &row.lagging, &row.lane};
    for (int c = 0; c < 7; ++c) {
      Datum* target = columns[c];
      bool is_null = false;
      const uint64 index = i;
      *target = Guard([index, c, &is_null] {
        HeapTuple tuple = SPI_tuptable->vals[index];
        TupleDesc desc = SPI_tuptable->tupdesc;
        const Datum value = SPI_getbinval(tuple, desc, c + 1, &is_null);
        if (is_null) return Datum(0);
        Form_pg_attribute attribute = TupleDescAttr(desc, c);
        return datumCopy(value, attribute->attbyval, attribute->attlen);
      });
      if (c == 1) row.source_null = is_null;
    }
    rows.push_back(row);
  }
  return rows;
}

std::unordered_map<std::string, Names> NamesOf(const std::vector<ClaimedRow>& rows) {
  std::vector<Datum> streams;
  for (const ClaimedRow& row : rows) streams.push_back(row.stream);
  Datum args[1] = {MakeArray(streams, nullptr, TEXTOID)};
  Execute(g_names_plan.Get(), args, nullptr, true, 0, SPI_OK_SELECT);
  std::unordered_map<std::string, Names> names;
  for (uint64 i = 0; i < RowCount(); ++i) names.emplace(std::string(*RowText(i, 1)), RowTextArray(i, 2));
  return names;
}

// The claimed rows' events are read through one snapshot taken after the
// horizon was computed: every event at or below it is visible then. (The
// calling statement's snapshot may predate a commit at or below the horizon
// that another row's source saw land, and a worker acking the ids it was
// handed would then skip that event for good. Under REPEATABLE READ the
// transaction's snapshot is older still: a fresh one is taken there too;
// the events are immutable once visible, so reading them newer is safe.)
class ReadSnapshot {
 public:
  ReadSnapshot() {
    Guard([] {
      CommandCounterIncrement();  // as a statement of the function would: the transaction's writes are seen
      PushActiveSnapshot(IsolationUsesXactSnapshot() ? GetLatestSnapshot() : GetTransactionSnapshot());
    });
  }
  // Called once the reads are done. Left pushed when an error unwinds: the
  // abort that follows pops it (a destructor must not raise).
  void Release() {
    Guard([] { PopActiveSnapshot(); });
  }
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;
};

// Memory for one row's events, freed once the row is in the result.
class RowMemory {
 public:
  RowMemory() {
    context_ = Guard([] { return AllocSetContextCreate(CurrentMemoryContext, "pg_act claimed events", ALLOCSET_DEFAULT_SIZES); });
    previous_ = MemoryContextSwitchTo(context_);
  }
  ~RowMemory() {
    MemoryContextSwitchTo(previous_);
    // Unwinding an error: its ErrorData may live here until the bridge
    // re-raises it, so the context goes with the function's (a child of it).
    if (std::uncaught_exceptions() == 0) MemoryContextDelete(context_);
  }
  void Reset() {
    Guard([this] { MemoryContextReset(context_); });
  }
  RowMemory(const RowMemory&) = delete;
  RowMemory& operator=(const RowMemory&) = delete;

 private:
  MemoryContext context_ = nullptr;
  MemoryContext previous_ = nullptr;
};

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_claim_events) {
  pg::RequirePrimary("act.claim_events");
  const pg::ClaimRequest request = pg::ReadClaimArguments(fcinfo);
  if (PG_ARGISNULL(pg::kMaxEvents))
    throw core::ValidationError("max_events must not be null", core::sqlstate::kNullValueNotAllowed);
  const int32 max_events = PG_GETARG_INT32(pg::kMaxEvents);
  if (max_events < 1) throw core::ValidationError("max_events must be 1 or more, not " + std::to_string(max_events));
  int64 max_bytes = pg::kDefaultMaxBytes;
  if (PG_NARGS() > pg::kMaxBytes) {
    if (PG_ARGISNULL(pg::kMaxBytes))
      throw core::ValidationError("max_bytes must not be null", core::sqlstate::kNullValueNotAllowed);
    const int32 given = PG_GETARG_INT32(pg::kMaxBytes);
    if (given < 1) throw core::ValidationError("max_bytes must be 1 or more, not " + std::to_string(given));
    max_bytes = std::min<int64>(given, pg::kMaxBatchBytes);
  }
  std::vector<core::LeaseEntry> acks;
  if (!PG_ARGISNULL(pg::kAcks))
    acks = core::ParseLeases(pg::JsonArgument(fcinfo, pg::kAcks, "acks"), core::LeaseUse::kAck, "acks");
  const int32 wait_millis = pg::ReadClaimWait(fcinfo, pg::kWaitMillis, !acks.empty());
  const bool hide_pii = !pg::CallerMayReadPii();

  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  if (!acks.empty()) pg::ApplyAcks(acks, "acks");
  if (request.counts.Total() > 0) {
    pg::RunClaimWaiting(request, wait_millis);
    const std::vector<pg::ClaimedRow> rows = pg::TakeClaimedRows();
    const std::unordered_map<std::string, pg::Names> names = pg::NamesOf(rows);
    // One horizon for every row: what the claim itself was capped at or below.
    const int64 horizon = pg::Horizon();
    pg::ReadSnapshot snapshot;
    pg::RowMemory memory;
    for (const pg::ClaimedRow& row : rows) {
      const auto found = names.find(std::string(pg::VarlenaBytes(row.stream)));
      pg::DrainScope scope;
      if (!row.source_null) {
        scope.source = row.source;
        scope.pattern = core::IsPattern(pg::VarlenaBytes(row.source));
      }
      scope.names = found != names.end() ? &found->second : nullptr;
      scope.after = DatumGetInt64(row.at);
      scope.horizon = horizon;
      scope.max_events = max_events;
      scope.max_bytes = max_bytes;
      scope.hide_pii = hide_pii;
      const Datum events = pg::DrainEvents(scope);
      Datum values[8] = {row.stream, row.source, row.at, row.by, row.retry, row.lagging, row.lane, events};
      bool nulls[8] = {false, row.source_null, false, false, false, false, false, false};
      // The result store copies the row into its own memory.
      pg::Guard([result, &values, &nulls] { tuplestore_putvalues(result->setResult, result->setDesc, values, nulls); });
      memory.Reset();
    }
    snapshot.Release();
  }
  spi.Finish();
  return Datum(0);
}
