#pragma once
// Row locks on act.subscription_rows as SELECT ... FOR UPDATE SKIP LOCKED
// takes them, without the executor: a row another transaction holds is
// passed over; a row updated since it was read is followed to its newest
// version (READ COMMITTED) or is a serialization failure (REPEATABLE READ
// and above), as the executor's row locks do.
#include "claim_rows.hpp"
#include "error_bridge.hpp"

namespace act::pg {

class RowLocker {
 public:
  RowLocker();  // opens the table with the row-lock mode's table lock
  ~RowLocker();
  RowLocker(const RowLocker&) = delete;
  RowLocker& operator=(const RowLocker&) = delete;

  struct Outcome {
    bool locked = false;
    bool followed = false;  // the version locked is newer than the one read
    ItemPointerData tid{};  // the version locked
  };

  // Locks the row whose version `tid` the active snapshot read. On success
  // the version locked stays readable until the next Lock.
  Outcome Lock(ItemPointerData tid);
  // Reads, without locking it, the newest committed version of the row whose
  // version `tid` was read; false when none is (the row was deleted). READ COMMITTED only: a lock would follow the row there.
  // The version read stays readable, as Locked, until the next call.
  bool Peek(ItemPointerData tid);
  ClaimRow Locked(const ClaimColumns& columns) const;
  Datum LockedStream(const ClaimColumns& columns) const;  // a copy, in the current memory context

  Relation table() const { return table_; }
  // REPEATABLE READ or above: a row updated since it was read is a serialization failure.
  bool xact_snapshot() const { return xact_snapshot_; }

 private:
  Relation table_ = nullptr;
  TupleTableSlot* slot_ = nullptr;
  TableScanDesc latest_scan_ = nullptr;  // Peek's, opened at its first call
  bool xact_snapshot_ = false;
};

}  // namespace act::pg
