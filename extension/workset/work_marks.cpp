#include "work_marks.hpp"

#include <optional>
#include <string>
#include <vector>

extern "C" {
#include "storage/bufmgr.h"
}

#include "arrays.hpp"
#include "index_scan.hpp"
#include "regex_cache.hpp"
#include "relations.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

namespace act::pg {
namespace {

// act.commit runs with the caller's search_path (a pinned one costs every
// commit a GUC change), so these statements name every function and
// operator with its schema.

const Oid kRaiseArgTypes[] = {TEXTARRAYOID, INT8ARRAYOID};
SavedPlan g_raise_plan(
    "UPDATE act.subscription_rows s SET correlated_at = u.mark "
    "FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(stream, mark) "
    "WHERE s.stream OPERATOR(pg_catalog.=) u.stream "
    "AND (s.correlated_at IS NULL OR s.correlated_at OPERATOR(pg_catalog.<) u.mark)",
    2, kRaiseArgTypes);

// Wide rows match every commit: their marks go to this backend's own row in
// act.wide_marks, so no two backends ever wait on the same row. The row
// exists after this backend id's first commit: the commit finds it through
// the primary key and raises it by its ctid. If another transaction updated
// the row meanwhile, the UPDATE either skips it (the ctid no longer matches)
// or, where a minor release does not recheck a TID scan's ctid, raises the
// newest version, which the stream and backend tests keep to this row
// (isolation spec wide_marks_rows). A row not raised here (not found,
// deleted, changed, already higher) goes through the upsert, whose ON
// CONFLICT probe and tuple lock would otherwise cost every commit. (A join
// UPDATE was planned as a scan of the table, which the constant updates fill
// with dead versions between vacuums.)
const Oid kRaiseByTidArgTypes[] = {TIDOID, INT8OID, TEXTOID, INT4OID};
SavedPlan g_wide_raise_plan(
    "UPDATE act.wide_marks SET mark = $2 "
    "WHERE ctid OPERATOR(pg_catalog.=) $1 AND mark OPERATOR(pg_catalog.<) $2 "
    "AND stream OPERATOR(pg_catalog.=) $3 AND backend OPERATOR(pg_catalog.=) $4",
    4, kRaiseByTidArgTypes);
const Oid kWideArgTypes[] = {TEXTARRAYOID, INT8ARRAYOID, INT4OID};
SavedPlan g_wide_insert_plan(
    "INSERT INTO act.wide_marks AS w (stream, backend, mark) "
    "SELECT u.stream, $3, u.mark FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(stream, mark) "
    "ON CONFLICT (stream, backend) DO UPDATE SET mark = excluded.mark WHERE w.mark OPERATOR(pg_catalog.<) excluded.mark",
    3, kWideArgTypes);

// The rows of one index scan of subscription_rows that this commit gives work.
void CollectMarks(IndexScan& scan, bool wide, std::string_view stream, const std::vector<core::EventRef>& events,
                  std::vector<Datum>& streams, std::vector<Datum>& marks) {
  const int stream_column = scan.Column("stream");
  const int source_column = scan.Column("source");
  const int names_column = scan.Column("names");
  while (scan.Next()) {
    const std::optional<std::string_view> source = scan.BytesAt(source_column);
    if (!wide && source && core::IsPattern(*source)) continue;  // the wide scan matches it
    if (wide && source && !PatternMatches(*source, stream)) continue;
    const std::optional<std::int64_t> mark = core::WorkMark(scan.TextArrayAt(names_column), events);
    if (!mark) continue;
    streams.push_back(MakeText(*scan.BytesAt(stream_column)));
    marks.push_back(Int64GetDatum(*mark));
  }
}

// True when act.subscription_rows has no pages, so no rows: a store without
// subscriptions skips the two index scans. With the registry lock held
// shared no subscribe is adding rows, and one that added rows before has
// extended the table.
bool RegistryEmpty() {
  return Guard([] {
    Relation rows = table_open(ActRelation("subscription_rows"), AccessShareLock);
    const bool empty = RelationGetNumberOfBlocks(rows) == 0;
    table_close(rows, NoLock);
    return empty;
  });
}

// This backend's act.wide_marks row of each stream, where it has one. Read
// before SPI connects: the raise then needs no lookup statement.
std::vector<std::optional<ItemPointerData>> OwnWideRows(const std::vector<Datum>& streams) {
  std::vector<std::optional<ItemPointerData>> rows;
  rows.reserve(streams.size());
  for (const Datum stream : streams) {
    IndexScan own("wide_marks", "wide_marks_pkey", stream, ScanSnapshot::kLatest, false, MyBackendId);
    const bool found = own.Next() && own.Int32At(own.Column("backend")) == MyBackendId;
    rows.push_back(found ? std::optional<ItemPointerData>(own.Tid()) : std::nullopt);
  }
  return rows;
}

// Raises each row found by its ctid; upserts the rest. Needs SPI.
void WriteWideMarks(const std::vector<Datum>& streams, const std::vector<Datum>& marks,
                    const std::vector<std::optional<ItemPointerData>>& own_rows) {
  std::vector<Datum> missing_streams, missing_marks;
  for (std::size_t i = 0; i < streams.size(); ++i) {
    if (own_rows[i]) {
      ItemPointerData tid = *own_rows[i];
      Datum args[4] = {PointerGetDatum(&tid), marks[i], streams[i], Int32GetDatum(MyBackendId)};
      ExecuteOnLatest(g_wide_raise_plan.Get(), args, nullptr, false, 0, SPI_OK_UPDATE);
      if (RowCount() == 1) continue;
    }
    missing_streams.push_back(streams[i]);
    missing_marks.push_back(marks[i]);
  }
  if (missing_streams.empty()) return;
  Datum args[3] = {MakeArray(missing_streams, nullptr, TEXTOID), MakeArray(missing_marks, nullptr, INT8OID),
                   Int32GetDatum(MyBackendId)};
  ExecuteOnLatest(g_wide_insert_plan.Get(), args, nullptr, false, 0, SPI_OK_INSERT);
}

}  // namespace

void MarkSubscriptions(Datum stream_datum, std::string_view stream, const std::vector<core::EventRef>& events) {
  if (RegistryEmpty()) return;
  std::vector<Datum> literal_streams, literal_marks, wide_streams, wide_marks;
  {
    // Literal sources by lookup; source-less and pattern rows (few) through a
    // partial index whose predicate is core::IsPattern in SQL.
    // The latest snapshot: under REPEATABLE READ the transaction's would miss
    // subscriptions created since it began, and with the registry lock held
    // shared every subscription that will ever exist before this commit is
    // visible is committed (docs/work-marks.md).
    IndexScan literal("subscription_rows", "subscriptions_source_ix", stream_datum, ScanSnapshot::kLatest);
    CollectMarks(literal, false, stream, events, literal_streams, literal_marks);
    IndexScan wide("subscription_rows", "subscriptions_wide_source_ix", std::nullopt, ScanSnapshot::kLatest);
    CollectMarks(wide, true, stream, events, wide_streams, wide_marks);
  }
  if (literal_streams.empty() && wide_streams.empty()) return;
  const std::vector<std::optional<ItemPointerData>> own_rows = OwnWideRows(wide_streams);
  SpiSession spi;
  // Literal rows: only commits to this same stream touch them.
  if (!literal_streams.empty()) {
    Datum args[2] = {MakeArray(literal_streams, nullptr, TEXTOID), MakeArray(literal_marks, nullptr, INT8OID)};
    ExecuteOnLatest(g_raise_plan.Get(), args, nullptr, false, 0, SPI_OK_UPDATE);
  }
  if (!wide_streams.empty()) WriteWideMarks(wide_streams, wide_marks, own_rows);
  spi.Finish();
}

}  // namespace act::pg
