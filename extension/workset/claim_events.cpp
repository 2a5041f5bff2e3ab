// act.claim_events(from_lagging, from_leading, by, millis, lane, max_events,
// acks): a worker's whole drain cycle in one round trip and one transaction:
// the last batch's acks, then act.claim's claim, then each claimed stream's
// events after its watermark (docs/sql.md "Draining in one call").
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "primary_only.hpp"
#include "act/core/errors.hpp"
#include "act/core/event_query.hpp"
#include "act/core/subscription_input.hpp"
#include "arrays.hpp"
#include "claim.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "json_args.hpp"
#include "leases.hpp"
#include "pii_access.hpp"
#include "query.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"
#include "stream_head.hpp"

extern "C" {
#include "utils/datum.h"
}

namespace act::pg {
namespace {

enum Arg : int { kFromLagging, kFromLeading, kBy, kMillis, kLane, kMaxEvents, kAcks };

// The events a claimed row hands over, as one jsonb array: its source (every
// stream, a literal, or a pattern), its names, never a snapshot or a
// tombstone, never above the horizon, after `at`, in id order, at most
// `max_events`. pii only where the caller may read it, and only when set.
std::string EventsSql(const core::EventQuery& query) {
  std::string pii = query.hide_pii ? "" : " || CASE WHEN e.pii IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('pii', e.pii) END";
  return "SELECT coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'stream', e.stream, 'version', e.version, "
         "'name', e.name, 'data', e.data, 'meta', e.meta, 'created', e.created)" + pii +
         " ORDER BY e.id), '[]'::jsonb) FROM (" + core::EventQuerySql(query) + ") e";
}

SPIPlanPtr EventsPlan(const core::EventQuery& query) {
  static std::unordered_map<std::uint32_t, SPIPlanPtr> plans;
  const std::uint32_t key = query.Key();
  if (auto found = plans.find(key); found != plans.end()) return found->second;
  SPIPlanPtr plan = PrepareKept(EventsSql(query), core::kEventQueryParamCount, kEventQueryArgTypes);
  plans.emplace(key, plan);
  return plan;
}

struct ClaimedRow {
  Datum stream, source, at, by, retry, lagging, lane;
  bool source_null = false;
  std::optional<std::vector<std::string>> names;
};

using Names = std::optional<std::vector<std::string>>;

// The names filters of the claimed rows, read once for all of them.
const Oid kNamesArgTypes[] = {TEXTARRAYOID};
SavedPlan g_names_plan("SELECT s.stream, s.names FROM act.subscription_rows s WHERE s.stream = ANY ($1)", 1,
                       kNamesArgTypes);

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

Datum EventsOf(const ClaimedRow& row, const Names& names, int64 max_events, bool hide_pii, int64 horizon) {

  core::EventQuery query;
  query.after = true;
  query.work_only = true;
  query.capped = true;
  query.hide_pii = hide_pii;
  std::optional<std::string> source;
  if (!row.source_null) {
    source = std::string(VarlenaBytes(row.source));
    query.stream = true;
    query.stream_exact = !core::IsPattern(*source);
  }
  query.names = names.has_value();
  query.from_version = source && query.stream_exact;

  Datum values[core::kEventQueryParamCount] = {};
  char nulls[core::kEventQueryParamCount + 1];
  std::fill_n(nulls, core::kEventQueryParamCount, 'n');
  nulls[core::kEventQueryParamCount] = '\0';
  auto bind = [&values, &nulls](int param, Datum value) {
    values[param - 1] = value;
    nulls[param - 1] = ' ';
  };
  if (source) bind(core::kParamStream, row.source);
  if (query.from_version)
    // The events are read read-only, through the calling statement's snapshot: so is the bound.
    bind(core::kParamFromVersion,
         Int32GetDatum(FirstVersionAfter(row.source, DatumGetInt64(row.at), ScanSnapshot::kActive)));
  bind(core::kParamAfter, row.at);
  if (names) {
    std::vector<Datum> items;
    for (const std::string& name : *names) items.push_back(MakeText(name));
    bind(core::kParamNames, MakeArray(items, nullptr, TEXTOID));
  }
  bind(core::kParamHorizon, Int64GetDatum(horizon));
  bind(core::kParamLimit, Int64GetDatum(max_events));
  Execute(EventsPlan(query), values, nulls, true, 0, SPI_OK_SELECT);
  return Guard([] {
    bool is_null = false;
    const Datum events = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &is_null);
    return SPI_datumTransfer(events, false, -1);
  });
}

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
  std::vector<core::LeaseEntry> acks;
  if (!PG_ARGISNULL(pg::kAcks))
    acks = core::ParseLeases(pg::JsonArgument(fcinfo, pg::kAcks, "acks"), core::LeaseUse::kAck, "acks");
  const bool hide_pii = !pg::CallerMayReadPii();

  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  if (!acks.empty()) pg::ApplyAcks(acks, "acks");
  if (request.counts.Total() > 0) {
    pg::RunClaim(request);
    const std::vector<pg::ClaimedRow> rows = pg::TakeClaimedRows();
    const std::unordered_map<std::string, pg::Names> names = pg::NamesOf(rows);
    // One horizon for every row: what the claim itself was capped at or below.
    const int64 horizon = pg::Horizon();
    for (const pg::ClaimedRow& row : rows) {
      const auto found = names.find(std::string(pg::VarlenaBytes(row.stream)));
      const Datum events = pg::EventsOf(row, found != names.end() ? found->second : pg::Names(), max_events, hide_pii, horizon);
      Datum values[8] = {row.stream, row.source, row.at, row.by, row.retry, row.lagging, row.lane, events};
      bool nulls[8] = {false, row.source_null, false, false, false, false, false, false};
      pg::Guard([result, &values, &nulls] { tuplestore_putvalues(result->setResult, result->setDesc, values, nulls); });
    }
  }
  spi.Finish();
  return Datum(0);
}
