#include "index_scan.hpp"

#include <cstring>
#include <stdexcept>

#include "arrays.hpp"
#include "relations.hpp"

namespace act::pg {

namespace {

int KeysFor(std::optional<Datum> key, std::optional<int32> min_second, RegProcedure key_equal, IndexKey* keys) {
  if (!key) return 0;
  keys[0] = IndexKey{1, BTEqualStrategyNumber, key_equal, *key};
  if (!min_second) return 1;
  keys[1] = IndexKey{2, BTGreaterEqualStrategyNumber, F_INT4GE, Int32GetDatum(*min_second)};
  return 2;
}

}  // namespace

IndexScan::IndexScan(const char* table, const char* index, std::optional<Datum> key, ScanSnapshot snapshot,
                     bool backward, std::optional<int32> min_second, RegProcedure key_equal)
    : backward_(backward) {
  IndexKey keys[2];
  Open(table, index, keys, KeysFor(key, min_second, key_equal, keys), snapshot);
}

IndexScan::IndexScan(const char* table, const char* index, const IndexKey* keys, int key_count, ScanSnapshot snapshot,
                     bool backward)
    : backward_(backward) {
  Open(table, index, keys, key_count, snapshot);
}

void IndexScan::Open(const char* table, const char* index, const IndexKey* keys, int key_count, ScanSnapshot snapshot) {
  if (key_count > kMaxKeys) throw std::logic_error("IndexScan takes at most 4 keys");
  IndexScan* self = this;
  Guard([self, table, index, keys, key_count, snapshot] {
    if (snapshot == ScanSnapshot::kActive) {
      self->snapshot_ = RegisterSnapshot(GetActiveSnapshot());
    } else {
      CommandCounterIncrement();  // this transaction's earlier writes are visible in both
      self->snapshot_ =
          RegisterSnapshot(snapshot == ScanSnapshot::kStatement ? GetTransactionSnapshot() : GetLatestSnapshot());
    }
    self->table_ = table_open(ActRelation(table), AccessShareLock);
    self->index_ = index_open(ActRelation(index), AccessShareLock);
    for (int i = 0; i < key_count; ++i)
      ScanKeyEntryInitialize(&self->keys_[i], 0, keys[i].column, keys[i].strategy, InvalidOid,
                             self->index_->rd_indcollation[keys[i].column - 1], keys[i].procedure, keys[i].value);
    self->key_count_ = key_count;
    self->scan_ = index_beginscan(self->table_, self->index_, self->snapshot_, key_count, 0);
    index_rescan(self->scan_, key_count > 0 ? self->keys_ : nullptr, key_count, nullptr, 0);
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

void IndexScan::Restart(int32 min_second, bool backward) {
  if (key_count_ < 2 || keys_[1].sk_attno != 2) throw std::logic_error("IndexScan::Restart needs a second-column bound");
  keys_[1].sk_argument = Int32GetDatum(min_second);
  backward_ = backward;
  IndexScan* self = this;
  Guard([self] { index_rescan(self->scan_, self->keys_, self->key_count_, nullptr, 0); });
}

void IndexScan::Rescan(Datum first_key) {
  if (key_count_ < 1) throw std::logic_error("IndexScan::Rescan needs a key");
  keys_[0].sk_argument = first_key;
  IndexScan* self = this;
  Guard([self] { index_rescan(self->scan_, self->keys_, self->key_count_, nullptr, 0); });
}

bool IndexScan::NextDeformed(int columns) {
  IndexScan* self = this;
  return Guard([self, columns] {
    CHECK_FOR_INTERRUPTS();
    if (!index_getnext_slot(self->scan_, self->backward_ ? BackwardScanDirection : ForwardScanDirection, self->slot_))
      return false;
    slot_getsomeattrs(self->slot_, columns);
    return true;
  });
}

int IndexScan::Column(const char* name) const { return ColumnNumber(table_, name); }

Datum IndexScan::At(int column, bool* is_null) const {
  TupleTableSlot* slot = slot_;
  return Guard([slot, column, is_null] { return slot_getattr(slot, column, is_null); });
}

ItemPointerData IndexScan::Tid() const { return slot_->tts_tid; }

bool IndexScan::Superseded() const {
  if (!TTS_IS_BUFFERTUPLE(slot_)) return false;
  const HeapTupleHeader header = reinterpret_cast<const BufferHeapTupleTableSlot*>(slot_)->base.tuple->t_data;
  const uint16 mask = header->t_infomask;
  if ((mask & HEAP_XMAX_INVALID) != 0 || HEAP_XMAX_IS_LOCKED_ONLY(mask)) return false;
  return TransactionIdIsValid(HeapTupleHeaderGetRawXmax(header));
}

std::optional<int32> IndexScan::Int32At(int column) const {
  bool is_null = false;
  const Datum value = At(column, &is_null);
  if (is_null) return std::nullopt;
  return DatumGetInt32(value);
}

std::optional<int64> IndexScan::Int64At(int column) const {
  bool is_null = false;
  const Datum value = At(column, &is_null);
  if (is_null) return std::nullopt;
  return DatumGetInt64(value);
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
