// act.subscribe(subscriptions, correlated_at, correlator): register and merge
// reaction targets, back-fill new ones, advance the correlate checkpoint and
// take or renew the correlator lease — one call (docs/reference.md, act.subscribe).
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "act/core/errors.hpp"
#include "act/core/subscription_input.hpp"
#include "act/core/text.hpp"
#include "arrays.hpp"
#include "backfill.hpp"
#include "error_bridge.hpp"
#include "hosted_partition.hpp"
#include "json_args.hpp"
#include "locks.hpp"
#include "primary_only.hpp"
#include "regex_cache.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"
#include "work_marks.hpp"
#include "workset/subscribe_sql.hpp"

namespace act::pg {
namespace {

// Every statement runs on the latest snapshot (ExecuteOnLatest): under
// REPEATABLE READ a back-fill on the transaction's snapshot would miss
// events committed before this call, and the registry lock is what decides
// which commits a subscribe must see (docs/work-marks.md).

const Oid kExistingArgTypes[] = {TEXTARRAYOID};
SavedPlan g_existing_plan(subscribe_sql::kExisting, 1, kExistingArgTypes);

const Oid kInsertArgTypes[] = {TEXTARRAYOID, TEXTARRAYOID, JSONBARRAYOID, INT4ARRAYOID, TEXTARRAYOID, INT8ARRAYOID};
// A new wide row joins the class of its (source, names), created when
// missing; ids are max + 1, safe under the registry lock held exclusively.
// Classes are created only for rows that will be inserted.
SavedPlan g_insert_plan(subscribe_sql::kInsert, 6, kInsertArgTypes);
// An older version's schema (before ALTER EXTENSION UPDATE to 0.2.1) has no classes.
SavedPlan g_insert_without_class_plan(subscribe_sql::kInsertWithoutClass, 6, kInsertArgTypes);

// Merge rules: priority only rises, lane last-writer-wins, the mark never
// regresses; rows where nothing changes are not rewritten.
const Oid kMergeArgTypes[] = {TEXTARRAYOID, INT4ARRAYOID, TEXTARRAYOID, INT8ARRAYOID};
SavedPlan g_merge_plan(subscribe_sql::kMerge, 4, kMergeArgTypes);

const Oid kCheckpointArgTypes[] = {TEXTOID, INT8OID};
SavedPlan g_advance_plan(subscribe_sql::kAdvance, 2, kCheckpointArgTypes);

const Oid kLeaseArgTypes[] = {TEXTOID, INT8OID, TEXTOID, INT4OID};
SavedPlan g_lease_plan(subscribe_sql::kLease, 4, kLeaseArgTypes);

const Oid kSummaryArgTypes[] = {TEXTOID};
SavedPlan g_summary_plan(subscribe_sql::kSummary, 1, kSummaryArgTypes);

std::optional<std::vector<std::string>> Sorted(std::optional<std::vector<std::string>> names) {
  if (names) std::sort(names->begin(), names->end());
  return names;
}

std::string Describe(const std::optional<std::string>& source, const std::optional<std::vector<std::string>>& names) {
  return "source " + (source ? core::Quoted(*source) : std::string("NULL (every stream)")) + ", names " +
         (names ? nlohmann::json(*names).dump() : std::string("NULL (every name)"));
}

// A row's source and names are fixed when it is first created: a request
// that asks for others changes nothing, and says so rather than keep silent.
void NoticeFixedFields(const core::SubscriptionEntry& entry, std::optional<std::string> source,
                       std::optional<std::vector<std::string>> names) {
  if (entry.source == source && Sorted(entry.names) == Sorted(names)) return;
  const std::string message = "subscription " + core::Quoted(entry.stream) + " keeps its " + Describe(source, names) +
                              "; the requested " + Describe(entry.source, entry.names) + " changed nothing";
  const char* text = message.c_str();
  Guard([text] {
    ereport(NOTICE, (errmsg("%s", text),
                     errhint("A subscription's source and names are set when it is created; subscribe under a new "
                             "stream name to change them.")));
  });
}

std::unordered_set<std::string> ExistingStreams(const std::vector<core::SubscriptionEntry>& entries) {
  std::vector<Datum> names;
  for (const auto& entry : entries) names.push_back(MakeText(entry.stream));
  Datum args[1] = {MakeArray(names, nullptr, TEXTOID)};
  ExecuteOnLatest(g_existing_plan.Get(), args, nullptr, true, 0, SPI_OK_SELECT);
  std::unordered_map<std::string_view, const core::SubscriptionEntry*> by_stream;
  for (const auto& entry : entries) by_stream.emplace(entry.stream, &entry);
  std::unordered_set<std::string> existing;
  for (uint64 row = 0; row < RowCount(); ++row) {
    const std::string stream(*RowText(row, 1));
    std::optional<std::string> source;
    if (auto text = RowText(row, 2)) source = std::string(*text);
    std::optional<std::vector<std::string>> row_names = RowTextArray(row, 3);
    // Entries are merged per stream: one matches.
    if (const auto entry = by_stream.find(stream); entry != by_stream.end())
      NoticeFixedFields(*entry->second, std::move(source), std::move(row_names));
    existing.emplace(stream);
  }
  return existing;
}

Datum NamesJson(const std::optional<std::vector<std::string>>& names) {
  const std::string text = nlohmann::json(*names).dump();
  const char* data = text.c_str();
  return Guard([data] { return DirectFunctionCall1(jsonb_in, CStringGetDatum(data)); });
}

// Inserts the rows that do not exist yet; returns how many were inserted.
int InsertAndBackfill(const std::vector<core::SubscriptionEntry>& entries) {
  std::vector<Datum> streams, sources, names, priorities, lanes, marks;
  const std::size_t count = entries.size();
  auto source_nulls = std::make_unique<bool[]>(count);
  auto names_nulls = std::make_unique<bool[]>(count);
  auto mark_nulls = std::make_unique<bool[]>(count);
  for (std::size_t i = 0; i < count; ++i) {
    const core::SubscriptionEntry& entry = entries[i];
    streams.push_back(MakeText(entry.stream));
    sources.push_back(entry.source ? MakeText(*entry.source) : Datum(0));
    source_nulls[i] = !entry.source;
    names.push_back(entry.names ? NamesJson(entry.names) : Datum(0));
    names_nulls[i] = !entry.names;
    priorities.push_back(Int32GetDatum(entry.priority));
    lanes.push_back(MakeText(entry.lane));
    marks.push_back(entry.mark ? Int64GetDatum(*entry.mark) : Datum(0));
    mark_nulls[i] = !entry.mark;
  }
  Datum args[6] = {MakeArray(streams, nullptr, TEXTOID),         MakeArray(sources, source_nulls.get(), TEXTOID),
                   MakeArray(names, names_nulls.get(), JSONBOID), MakeArray(priorities, nullptr, INT4OID),
                   MakeArray(lanes, nullptr, TEXTOID),           MakeArray(marks, mark_nulls.get(), INT8OID)};
  const bool by_class = MarksByClass();
  SavedPlan& insert = by_class ? g_insert_plan : g_insert_without_class_plan;
  ExecuteOnLatest(insert.Get(), args, nullptr, false, 0, SPI_OK_INSERT_RETURNING);

  struct NewRow {
    std::string stream;
    std::optional<std::string> source;
    std::optional<std::vector<std::string>> names;
  };
  std::vector<NewRow> inserted;
  for (uint64 row = 0; row < RowCount(); ++row) {
    NewRow item{std::string(*RowText(row, 1)), std::nullopt, RowTextArray(row, 3)};
    if (auto source = RowText(row, 2)) item.source = std::string(*source);
    inserted.push_back(std::move(item));
  }
  for (const NewRow& row : inserted) Backfill(row.stream, row.source, row.names);
  // A row that joins an existing class whose mark is above what its
  // back-fill found takes that mark as its floor (backfill.hpp).
  if (by_class && !inserted.empty()) {
    std::vector<std::string> inserted_streams;
    for (const NewRow& row : inserted) inserted_streams.push_back(row.stream);
    SetClassFloors(inserted_streams);
  }
  return static_cast<int>(inserted.size());
}

// The check of act_subscribe's arguments, again under the registry lock.
void RequireHostedSources(const std::vector<core::SubscriptionEntry>& entries) {
  for (const core::SubscriptionEntry& entry : entries)
    if (entry.source && !core::IsPattern(*entry.source)) RequireHostedStream(*entry.source);
}

void MergeExisting(const std::vector<core::SubscriptionEntry>& entries) {
  std::vector<Datum> streams, priorities, lanes, marks;
  auto mark_nulls = std::make_unique<bool[]>(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    streams.push_back(MakeText(entries[i].stream));
    priorities.push_back(Int32GetDatum(entries[i].priority));
    lanes.push_back(MakeText(entries[i].lane));
    marks.push_back(entries[i].mark ? Int64GetDatum(*entries[i].mark) : Datum(0));
    mark_nulls[i] = !entries[i].mark;
  }
  Datum args[4] = {MakeArray(streams, nullptr, TEXTOID), MakeArray(priorities, nullptr, INT4OID),
                   MakeArray(lanes, nullptr, TEXTOID), MakeArray(marks, mark_nulls.get(), INT8OID)};
  ExecuteOnLatest(g_merge_plan.Get(), args, nullptr, false, 0, SPI_OK_UPDATE);
}

void AdvanceCheckpoint(const std::string& key, std::int64_t at) {
  Datum args[2] = {MakeText(key), Int64GetDatum(at)};
  ExecuteOnLatest(g_advance_plan.Get(), args, nullptr, false, 0, SPI_OK_UPDATE);
}

// Returns whether the lease was granted or renewed (docs/reference.md, act.subscribe).
bool LeaseCorrelator(const core::CorrelatorLease& lease, std::optional<std::int64_t> checkpoint) {
  Datum args[4] = {MakeText(lease.key), checkpoint ? Int64GetDatum(*checkpoint) : Datum(0), MakeText(lease.by),
                   Int32GetDatum(static_cast<int32>(lease.millis))};
  const char nulls[5] = {' ', checkpoint ? ' ' : 'n', ' ', ' ', '\0'};
  ExecuteOnLatest(g_lease_plan.Get(), args, nulls, false, 0, SPI_OK_INSERT);
  return RowCount() > 0;
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_subscribe) {
  pg::RequirePrimary("act.subscribe");
  if (PG_ARGISNULL(0)) throw core::ValidationError("subscriptions must not be null", core::sqlstate::kNullValueNotAllowed);
  const std::vector<core::SubscriptionEntry> entries = core::ParseSubscriptions(pg::JsonArgument(fcinfo, 0, "subscriptions"));
  const std::optional<std::int64_t> checkpoint =
      PG_ARGISNULL(1) ? std::nullopt : std::optional<std::int64_t>(PG_GETARG_INT64(1));
  const std::optional<core::CorrelatorLease> correlator = core::ParseCorrelator(pg::JsonArgument(fcinfo, 2, "correlator"));
  if (correlator && correlator->key.empty())
    throw core::ValidationError("correlator.key must not be empty: '' is the shared checkpoint");
  for (const core::SubscriptionEntry& entry : entries) {
    if (!entry.source) continue;
    if (core::IsPattern(*entry.source)) {
      pg::ValidatePattern(*entry.source, "the source of subscription \"" + entry.stream + "\"");
    } else {
      pg::RequireHostedStream(*entry.source);  // a literal source lives in its stream's partition
    }
  }

  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  int subscribed = 0;
  if (!entries.empty()) {
    const std::unordered_set<std::string> existing = pg::ExistingStreams(entries);
    if (existing.size() < entries.size()) {
      // New rows: no commit may mark (or miss) them while they are back-filled.
      pg::TakeRegistryExclusive();
      // Again under the lock act.set_partition takes too: taking it brought
      // in a setting committed while this call waited for it.
      pg::RequireHostedSources(entries);
      subscribed = pg::InsertAndBackfill(entries);
    }
    pg::MergeExisting(entries);
  }
  std::optional<bool> correlating;
  if (correlator) {
    correlating = pg::LeaseCorrelator(*correlator, checkpoint);
    if (!*correlating && checkpoint) pg::AdvanceCheckpoint(correlator->key, *checkpoint);
  }
  if (checkpoint) pg::AdvanceCheckpoint("", *checkpoint);

  Datum summary_args[1] = {pg::MakeText(correlator ? correlator->key : std::string())};
  pg::ExecuteOnLatest(pg::g_summary_plan.Get(), summary_args, nullptr, false, 0, SPI_OK_SELECT);
  const int64 watermark = *pg::RowInt64(0, 1);
  const int64 correlated_at = *pg::RowInt64(0, 2);
  Datum values[4] = {Int32GetDatum(subscribed), Int64GetDatum(watermark), Int64GetDatum(correlated_at),
                     BoolGetDatum(correlating.value_or(false))};
  bool nulls[4] = {false, false, false, !correlating.has_value()};
  pg::Guard([result, &values, &nulls] { tuplestore_putvalues(result->setResult, result->setDesc, values, nulls); });
  spi.Finish();
  return Datum(0);
}
