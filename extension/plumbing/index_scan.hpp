#pragma once
// Reading a few rows of one of our tables through one of its indexes, without
// the executor: the commit path's lookups (a stream's head, the subscriptions
// a commit marks) cost a plan's start-up and tear-down each through SPI, more
// than the lookup itself.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error_bridge.hpp"

namespace act::pg {

// kStatement: the snapshot an SPI statement would use (a fresh one in READ
// COMMITTED, the transaction's in REPEATABLE READ). kLatest: every committed
// row, whatever the isolation level. Both see this transaction's own writes.
// kActive: the calling statement's snapshot, as a query of a STABLE SQL
// function would see (for reading functions that replace one).
enum class ScanSnapshot { kStatement, kLatest, kActive };

// A condition on one index column: `column` (1-based, in the index)
// compared with `value` by `procedure` under `strategy`. The column's
// collation is the index's.
struct IndexKey {
  AttrNumber column;
  StrategyNumber strategy;
  RegProcedure procedure;
  Datum value;
};

// An open scan of table act.<table> through index act.<index>, optionally
// restricted to rows whose first index column equals a key (text, or what
// `key_equal` compares). Rows come in index order, or the reverse. Columns
// are read by name from the current row.
class IndexScan {
 public:
  // min_second: if given, only rows whose second index column (an int4) is at least this.
  IndexScan(const char* table, const char* index, std::optional<Datum> key, ScanSnapshot snapshot,
            bool backward = false, std::optional<int32> min_second = std::nullopt, RegProcedure key_equal = F_TEXTEQ);
  // Rows meeting every one of key_count keys (conditions on leading columns).
  IndexScan(const char* table, const char* index, const IndexKey* keys, int key_count, ScanSnapshot snapshot,
            bool backward = false);
  ~IndexScan();
  IndexScan(const IndexScan&) = delete;
  IndexScan& operator=(const IndexScan&) = delete;

  bool Next();  // moves to the next visible row; false at the end
  // Starts over, same snapshot, with the second column's lower bound now
  // `min_second` (a scan opened with one), in the given direction: a probe
  // for one more key costs an index descent, not a scan's set-up.
  void Restart(int32 min_second, bool backward);
  // Starts over, same snapshot and direction, with the first key's value now
  // `first_key`: a lookup by another key costs an index descent.
  void Rescan(Datum first_key);
  // For long scans: Next, then deforms the row's first `columns` columns for
  // DeformedAt, in one call into Postgres; answers a cancel between rows.
  bool NextDeformed(int columns);
  // A column NextDeformed deformed; a by-reference value points into the row
  // (valid until the next move).
  Datum DeformedAt(int column, bool* is_null) const {
    *is_null = slot_->tts_isnull[column - 1];
    return slot_->tts_values[column - 1];
  }
  int Column(const char* name) const;  // attribute number, checked
  std::optional<int32> Int32At(int column) const;
  std::optional<int64> Int64At(int column) const;
  std::optional<std::string_view> BytesAt(int column) const;  // text or bytea; valid until the next Next()
  std::optional<std::vector<std::string>> TextArrayAt(int column) const;
  ItemPointerData Tid() const;  // where the current row version is
  // Whether the current row version's header names a transaction that
  // updated or deleted it (committed, running or aborted), read without the
  // page lock: a hint for callers that lock the row afterwards anyway.
  bool Superseded() const;

 private:
  void Open(const char* table, const char* index, const IndexKey* keys, int key_count, ScanSnapshot snapshot);
  Datum At(int column, bool* is_null) const;

  static constexpr int kMaxKeys = 4;
  ScanKeyData keys_[kMaxKeys];
  int key_count_ = 0;
  Relation table_ = nullptr;
  Relation index_ = nullptr;
  IndexScanDesc scan_ = nullptr;
  TupleTableSlot* slot_ = nullptr;
  Snapshot snapshot_ = nullptr;
  bool backward_;
};

}  // namespace act::pg
