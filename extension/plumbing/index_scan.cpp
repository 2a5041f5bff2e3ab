#include "index_scan.hpp"

#include <cstring>

#include "arrays.hpp"
#include "relations.hpp"

namespace act::pg {

IndexScan::IndexScan(const char* table, const char* index, std::optional<Datum> key, ScanSnapshot snapshot,
                     bool backward, std::optional<int32> min_second, RegProcedure key_equal)
    : backward_(backward) {
  const int key_count = key ? (min_second ? 2 : 1) : 0;
  const Datum key_value = key.value_or(Datum(0));
  const int32 second_value = min_second.value_or(0);
  IndexScan* self = this;
  Guard([self, table, index, key_count, key_value, second_value, snapshot, key_equal] {
    CommandCounterIncrement();  // this transaction's earlier writes are visible in both
    self->snapshot_ =
        RegisterSnapshot(snapshot == ScanSnapshot::kStatement ? GetTransactionSnapshot() : GetLatestSnapshot());
    self->table_ = table_open(ActRelation(table), AccessShareLock);
    self->index_ = index_open(ActRelation(index), AccessShareLock);
    ScanKeyData keys[2];
    ScanKeyEntryInitialize(&keys[0], 0, 1, BTEqualStrategyNumber, InvalidOid, self->index_->rd_indcollation[0],
                           key_equal, key_value);
    ScanKeyEntryInitialize(&keys[1], 0, 2, BTGreaterEqualStrategyNumber, InvalidOid, InvalidOid, F_INT4GE,
                           Int32GetDatum(second_value));
    self->scan_ = index_beginscan(self->table_, self->index_, self->snapshot_, key_count, 0);
    index_rescan(self->scan_, key_count > 0 ? keys : nullptr, key_count, nullptr, 0);
    self->slot_ = table_slot_create(self->table_, nullptr);
  });
}

IndexScan::~IndexScan() {
  IndexScan* self = this;
  try {
    Guard([self] {
      if (self->slot_ != nullptr) ExecDropSingleTupleTableSlot(self->slot_);
      if (self->scan_ != nullptr) index_endscan(self->scan_);
      if (self->index_ != nullptr) index_close(self->index_, NoLock);
      if (self->table_ != nullptr) table_close(self->table_, NoLock);
      if (self->snapshot_ != nullptr) UnregisterSnapshot(self->snapshot_);
    });
  } catch (...) {
    // Only during an abort already under way, which releases all of these.
  }
}

bool IndexScan::Next() {
  IndexScan* self = this;
  return Guard([self] {
    return index_getnext_slot(self->scan_, self->backward_ ? BackwardScanDirection : ForwardScanDirection,
                              self->slot_);
  });
}

int IndexScan::Column(const char* name) const {
  // The table's descriptor is at hand: no catalog lookup.
  const TupleDesc desc = RelationGetDescr(table_);
  for (int i = 0; i < desc->natts; ++i) {
    const Form_pg_attribute column = TupleDescAttr(desc, i);
    if (!column->attisdropped && strcmp(NameStr(column->attname), name) == 0) return i + 1;
  }
  return Guard([name]() -> int { elog(ERROR, "pg_act: column %s is missing", name); });
}

Datum IndexScan::At(int column, bool* is_null) const {
  TupleTableSlot* slot = slot_;
  return Guard([slot, column, is_null] { return slot_getattr(slot, column, is_null); });
}

ItemPointerData IndexScan::Tid() const { return slot_->tts_tid; }

std::optional<int32> IndexScan::Int32At(int column) const {
  bool is_null = false;
  const Datum value = At(column, &is_null);
  if (is_null) return std::nullopt;
  return DatumGetInt32(value);
}

std::optional<std::string_view> IndexScan::BytesAt(int column) const {
  bool is_null = false;
  const Datum value = At(column, &is_null);
  if (is_null) return std::nullopt;
  return VarlenaBytes(value);
}

std::optional<std::vector<std::string>> IndexScan::TextArrayAt(int column) const {
  bool is_null = false;
  const Datum value = At(column, &is_null);
  if (is_null) return std::nullopt;
  return TextArrayElements(value);
}

}  // namespace act::pg
