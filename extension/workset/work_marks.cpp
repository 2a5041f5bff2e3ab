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
#include "workset/work_marks_sql.hpp"

namespace act::pg {
namespace {

// act.commit runs with the caller's search_path (a pinned one costs every
// commit a GUC change), so these statements name every function and
// operator with its schema.

const Oid kRaiseArgTypes[] = {TEXTARRAYOID, INT8ARRAYOID};
SavedPlan g_raise_plan(work_marks_sql::kRaise, 2, kRaiseArgTypes);

// Wide rows match every commit: their marks go, per class of (source,
// names), to this backend's own row in act.wide_marks, so no two backends
// ever wait on the same row and a commit writes one row per matching class,
// however many subscriptions share it. The row exists after this backend
// id's first commit: the commit finds it through the primary key and raises
// it by its ctid. If another transaction updated the row meanwhile, the
// UPDATE either skips it (the ctid no longer matches) or, where a minor
// release does not recheck a TID scan's ctid, raises the newest version,
// which the class and backend tests keep to this row (isolation spec
// wide_marks_rows). A row not raised here (not found, deleted, changed,
// already higher) goes through the upsert, whose ON CONFLICT probe and tuple
// lock would otherwise cost every commit. (A join UPDATE was planned as a
// scan of the table, which the constant updates fill with dead versions
// between vacuums.)
const Oid kRaiseByTidArgTypes[] = {TIDOID, INT8OID, INT4OID, INT4OID};
SavedPlan g_wide_raise_plan(work_marks_sql::kWideRaise, 4, kRaiseByTidArgTypes);
const Oid kWideArgTypes[] = {INT4ARRAYOID, INT8ARRAYOID, INT4OID};
SavedPlan g_wide_insert_plan(work_marks_sql::kWideInsert, 3, kWideArgTypes);

// Before 0.2.1 (MarksByClass false) act.wide_marks is keyed by subscription.
const Oid kRaiseRowByTidArgTypes[] = {TIDOID, INT8OID, TEXTOID, INT4OID};
SavedPlan g_row_raise_plan(work_marks_sql::kRowRaise, 4, kRaiseRowByTidArgTypes);
const Oid kRowArgTypes[] = {TEXTARRAYOID, INT8ARRAYOID, INT4OID};
SavedPlan g_row_insert_plan(work_marks_sql::kRowInsert, 3, kRowArgTypes);

// How one schema keys act.wide_marks: by class id, or (before 0.2.1) by subscription.
struct WideKeys {
  Oid type;
  RegProcedure equal;
  SavedPlan& raise;
  SavedPlan& insert;
};
WideKeys ByClass() { return WideKeys{INT4OID, F_INT4EQ, g_wide_raise_plan, g_wide_insert_plan}; }
WideKeys ByRow() { return WideKeys{TEXTOID, F_TEXTEQ, g_row_raise_plan, g_row_insert_plan}; }

// The rows of one index scan of subscription_rows that this commit gives
// work: literal sources, or with `wide` (before 0.2.1) the wide rows.
void CollectRowMarks(IndexScan& scan, bool wide, std::string_view stream, const std::vector<core::EventRef>& events,
                     std::vector<Datum>& streams, std::vector<Datum>& marks) {
  const int stream_column = scan.Column("stream");
  const int source_column = scan.Column("source");
  const int names_column = scan.Column("names");
  while (scan.Next()) {
    const std::optional<std::string_view> source = scan.BytesAt(source_column);
    if (!wide && source && core::IsPattern(*source)) continue;  // a wide row: marked apart
    if (wide && source && !PatternMatches(*source, stream)) continue;
    const std::optional<std::int64_t> mark = core::WorkMark(scan.TextArrayAt(names_column), events);
    if (!mark) continue;
    streams.push_back(MakeText(*scan.BytesAt(stream_column)));
    marks.push_back(Int64GetDatum(*mark));
  }
}

// The wide classes (all of act.wide_classes) whose source matches the
// committed stream and whose names take one of its events.
void CollectClassMarks(std::string_view stream, const std::vector<core::EventRef>& events, std::vector<Datum>& classes,
                       std::vector<Datum>& marks) {
  IndexScan scan("wide_classes", "wide_classes_pkey", std::nullopt, ScanSnapshot::kLatest);
  const int id_column = scan.Column("id");
  const int source_column = scan.Column("source");
  const int names_column = scan.Column("names");
  while (scan.Next()) {
    const std::optional<std::string_view> source = scan.BytesAt(source_column);
    if (source && !PatternMatches(*source, stream)) continue;
    const std::optional<std::int64_t> mark = core::WorkMark(scan.TextArrayAt(names_column), events);
    if (!mark) continue;
    classes.push_back(Int32GetDatum(*scan.Int32At(id_column)));
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

// This backend's act.wide_marks row of each class, where it has one. Read
// before SPI connects: the raise then needs no lookup statement.
std::vector<std::optional<ItemPointerData>> OwnWideRows(const std::vector<Datum>& keys, const WideKeys& keyed) {
  std::vector<std::optional<ItemPointerData>> rows;
  rows.reserve(keys.size());
  for (const Datum key : keys) {
    IndexScan own("wide_marks", "wide_marks_pkey", key, ScanSnapshot::kLatest, false, MyBackendId, keyed.equal);
    const bool found = own.Next() && own.Int32At(own.Column("backend")) == MyBackendId;
    rows.push_back(found ? std::optional<ItemPointerData>(own.Tid()) : std::nullopt);
  }
  return rows;
}

// Raises each row found by its ctid; upserts the rest. Needs SPI.
void WriteWideMarks(const std::vector<Datum>& keys, const std::vector<Datum>& marks,
                    const std::vector<std::optional<ItemPointerData>>& own_rows, const WideKeys& keyed) {
  std::vector<Datum> missing_keys, missing_marks;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (own_rows[i]) {
      ItemPointerData tid = *own_rows[i];
      Datum args[4] = {PointerGetDatum(&tid), marks[i], keys[i], Int32GetDatum(MyBackendId)};
      ExecuteOnLatest(keyed.raise.Get(), args, nullptr, false, 0, SPI_OK_UPDATE);
      if (RowCount() == 1) continue;
    }
    missing_keys.push_back(keys[i]);
    missing_marks.push_back(marks[i]);
  }
  if (missing_keys.empty()) return;
  Datum args[3] = {MakeArray(missing_keys, nullptr, keyed.type), MakeArray(missing_marks, nullptr, INT8OID),
                   Int32GetDatum(MyBackendId)};
  ExecuteOnLatest(keyed.insert.Get(), args, nullptr, false, 0, SPI_OK_INSERT);
}

}  // namespace

bool MarksByClass() { return ActRelationExists("wide_classes"); }

void MarkSubscriptions(Datum stream_datum, std::string_view stream, const std::vector<core::EventRef>& events) {
  if (RegistryEmpty()) return;
  const bool by_class = MarksByClass();
  const WideKeys keyed = by_class ? ByClass() : ByRow();
  std::vector<Datum> literal_streams, literal_marks, wide_keys, wide_marks;
  {
    // Literal sources by lookup; source-less and pattern rows through their
    // classes, few by construction.
    // The latest snapshot: under REPEATABLE READ the transaction's would miss
    // subscriptions created since it began, and with the registry lock held
    // shared every subscription that will ever exist before this commit is
    // visible is committed (docs/work-marks.md).
    IndexScan literal("subscription_rows", "subscriptions_source_ix", stream_datum, ScanSnapshot::kLatest);
    CollectRowMarks(literal, false, stream, events, literal_streams, literal_marks);
    if (by_class) {
      CollectClassMarks(stream, events, wide_keys, wide_marks);
    } else {
      IndexScan wide("subscription_rows", "subscriptions_wide_source_ix", std::nullopt, ScanSnapshot::kLatest);
      CollectRowMarks(wide, true, stream, events, wide_keys, wide_marks);
    }
  }
  if (literal_streams.empty() && wide_keys.empty()) return;
  const std::vector<std::optional<ItemPointerData>> own_rows = OwnWideRows(wide_keys, keyed);
  SpiSession spi;
  // Literal rows: only commits to this same stream touch them.
  if (!literal_streams.empty()) {
    Datum args[2] = {MakeArray(literal_streams, nullptr, TEXTOID), MakeArray(literal_marks, nullptr, INT8OID)};
    ExecuteOnLatest(g_raise_plan.Get(), args, nullptr, false, 0, SPI_OK_UPDATE);
  }
  if (!wide_keys.empty()) WriteWideMarks(wide_keys, wide_marks, own_rows, keyed);
  spi.Finish();
}

}  // namespace act::pg
