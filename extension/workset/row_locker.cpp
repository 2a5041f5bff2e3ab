#include "row_locker.hpp"

#include "relations.hpp"

extern "C" {
#include "access/tableam.h"
#include "utils/datum.h"
}

namespace act::pg {

RowLocker::RowLocker() {
  RowLocker* self = this;
  Guard([self] {
    self->table_ = table_open(ActRelation("subscription_rows"), RowShareLock);
    self->slot_ = table_slot_create(self->table_, nullptr);
    self->xact_snapshot_ = IsolationUsesXactSnapshot();
  });
}

RowLocker::~RowLocker() {
  RowLocker* self = this;
  try {
    Guard([self] {
      if (self->latest_scan_ != nullptr) table_endscan(self->latest_scan_);
      if (self->slot_ != nullptr) ExecDropSingleTupleTableSlot(self->slot_);
      if (self->table_ != nullptr) table_close(self->table_, NoLock);
    });
  } catch (...) {
    // Only during an abort already under way, which releases both.
  }
}

RowLocker::Outcome RowLocker::Lock(ItemPointerData tid) {
  Outcome outcome;
  Outcome* out = &outcome;
  RowLocker* self = this;
  Guard([self, out, tid] {
    ItemPointerData target = tid;
    TM_FailureData failure;
    const bool xact_snapshot = self->xact_snapshot_;
    ExecClearTuple(self->slot_);
    const TM_Result result = table_tuple_lock(self->table_, &target, GetActiveSnapshot(), self->slot_,
                                              GetCurrentCommandId(true), LockTupleExclusive, LockWaitSkip,
                                              xact_snapshot ? 0 : TUPLE_LOCK_FLAG_FIND_LAST_VERSION, &failure);
    switch (result) {
      case TM_Ok:
        out->locked = true;
        out->followed = failure.traversed;
        out->tid = self->slot_->tts_tid;
        break;
      case TM_WouldBlock:    // another transaction holds it
      case TM_SelfModified:  // this transaction changed it since its snapshot
        break;
      case TM_Updated:
      case TM_Deleted:
        if (xact_snapshot)
          ereport(ERROR, (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
                          errmsg("could not serialize access due to concurrent update")));
        if (result == TM_Updated) elog(ERROR, "pg_act: a claimed row's newest version was not followed");
        break;  // deleted (unsubscribed) since it was read
      default:
        elog(ERROR, "pg_act: unexpected row lock result %d", static_cast<int>(result));
    }
  });
  return outcome;
}

bool RowLocker::Peek(ItemPointerData tid) {
  RowLocker* self = this;
  return Guard([self, tid] {
    // SnapshotSelf sees what is committed when each version is checked, as
    // a lock would. One scan serves every peek: opening one reads the
    // table's size from the file system.
    if (self->latest_scan_ == nullptr) self->latest_scan_ = table_beginscan_tid(self->table_, SnapshotSelf);
    ItemPointerData newest = tid;
    table_tuple_get_latest_tid(self->latest_scan_, &newest);
    ExecClearTuple(self->slot_);
    return table_tuple_fetch_row_version(self->table_, &newest, SnapshotSelf, self->slot_);
  });
}

ClaimRow RowLocker::Locked(const ClaimColumns& columns) const {
  TupleTableSlot* slot = slot_;
  return ReadClaimRow(columns, [slot](int column, bool* is_null) {
    return Guard([slot, column, is_null] { return slot_getattr(slot, column, is_null); });
  });
}

Datum RowLocker::LockedStream(const ClaimColumns& columns) const {
  TupleTableSlot* slot = slot_;
  const int column = columns.stream;
  return Guard([slot, column] {
    bool is_null = false;
    return datumCopy(slot_getattr(slot, column, &is_null), false, -1);
  });
}

}  // namespace act::pg
