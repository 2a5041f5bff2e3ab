#include "claim_walk.hpp"

#include <algorithm>
#include <exception>
#include <vector>

#include "arrays.hpp"
#include "counters.hpp"
#include "index_scan.hpp"
#include "relations.hpp"
#include "spi.hpp"
#include "workset/claim_sql.hpp"

extern "C" {
#include "access/tableam.h"
#include "utils/datum.h"
}

namespace act::pg {
namespace {

constexpr char kTable[] = "subscription_rows";

const Oid kGrantArgTypes[] = {TEXTOID, INT4OID, TIDARRAYOID, TEXTARRAYOID};
// Tid scans whatever the arrays' lengths: planned once.
SavedPlan g_grant_plan(claim_sql::kGrant, 4, kGrantArgTypes, PlanMode::kGeneric);

// The attribute numbers of the columns a claim decides by.
struct Columns {
  int stream, at, correlated_at, blocked, leased_by, leased_until, deferred_at;
  int last;  // the highest of them: rows are deformed up to it
};

// What a claim needs to know of one version of a row.
struct RowState {
  int64 at = 0;
  std::optional<int64> correlated_at;
  bool blocked = false;
  bool leased = false;  // leased_by set
  TimestampTz leased_until = 0;
  std::optional<TimestampTz> deferred_at;
};

template <typename Read>
RowState ReadState(const Columns& columns, Read read) {
  RowState row;
  bool is_null = false;
  row.at = DatumGetInt64(read(columns.at, &is_null));
  Datum value = read(columns.correlated_at, &is_null);
  if (!is_null) row.correlated_at = DatumGetInt64(value);
  row.blocked = DatumGetBool(read(columns.blocked, &is_null));
  read(columns.leased_by, &is_null);
  row.leased = !is_null;
  value = read(columns.leased_until, &is_null);
  row.leased_until = is_null ? DT_NOBEGIN : DatumGetTimestampTz(value);
  value = read(columns.deferred_at, &is_null);
  if (!is_null) row.deferred_at = DatumGetTimestampTz(value);
  return row;
}

// The work-set indexes' predicate (sql/predicates/work_set.sql): the index
// holds only such rows, but a version found by following updates is checked.
bool HasStoredWork(const RowState& row) { return !row.blocked && row.correlated_at && row.at < *row.correlated_at; }

// Not leased (or the lease ran out), not deferred, and in concurrent mode
// below the horizon: the claim statement's `available`.
bool Available(const RowState& row, TimestampTz now, std::optional<int64> horizon) {
  if (row.leased && row.leased_until > now) return false;
  if (row.deferred_at && *row.deferred_at > now) return false;
  return !horizon || row.at < *horizon;
}

enum class Frontier { kPriority, kFairness, kLeading };

// A row this claim holds: where the walk read it, the version its lock is on
// (newer when the row was updated since), and whether a lagging frontier
// took it (the stream kept for the grant when only the leading one did).
struct Held {
  ItemPointerData candidate;
  ItemPointerData locked;
  Frontier frontier;
  Datum stream;
};

bool SameTid(const ItemPointerData& a, const ItemPointerData& b) {
  return ItemPointerEquals(const_cast<ItemPointerData*>(&a), const_cast<ItemPointerData*>(&b));
}

// Row locks on act.subscription_rows as SELECT ... FOR UPDATE SKIP LOCKED
// takes them: a row another transaction holds is passed over, a row updated
// since the walk read it is followed to its newest version (READ COMMITTED)
// or is a serialization failure (REPEATABLE READ and above).
class RowLocker {
 public:
  RowLocker() {
    RowLocker* self = this;
    Guard([self] {
      self->table_ = table_open(ActRelation(kTable), RowShareLock);
      self->slot_ = table_slot_create(self->table_, nullptr);
    });
  }
  ~RowLocker() {
    RowLocker* self = this;
    try {
      Guard([self] {
        if (self->slot_ != nullptr) ExecDropSingleTupleTableSlot(self->slot_);
        if (self->table_ != nullptr) table_close(self->table_, NoLock);
      });
    } catch (...) {
      // Only during an abort already under way, which releases both.
    }
  }
  RowLocker(const RowLocker&) = delete;
  RowLocker& operator=(const RowLocker&) = delete;

  struct Outcome {
    bool locked = false;
    bool followed = false;  // the version locked is newer than the one read
    ItemPointerData tid{};  // the version locked
  };

  // On success the version locked stays in the slot until the next Lock.
  Outcome Lock(ItemPointerData tid) {
    Outcome outcome;
    Outcome* out = &outcome;
    RowLocker* self = this;
    Guard([self, out, tid] {
      ItemPointerData target = tid;
      TM_FailureData failure;
      const bool xact_snapshot = IsolationUsesXactSnapshot();
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
        case TM_WouldBlock:    // another claimer holds it
        case TM_SelfModified:  // this transaction changed it since: not a candidate
          break;
        case TM_Updated:
        case TM_Deleted:
          if (xact_snapshot)
            ereport(ERROR, (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
                            errmsg("could not serialize access due to concurrent update")));
          if (result == TM_Updated) elog(ERROR, "pg_act: a claimed row's newest version was not followed");
          break;  // unsubscribed since the walk read it
        default:
          elog(ERROR, "pg_act: unexpected row lock result %d", static_cast<int>(result));
      }
    });
    return outcome;
  }

  RowState LockedState(const Columns& columns) const {
    TupleTableSlot* slot = slot_;
    return ReadState(columns, [slot](int column, bool* is_null) {
      return Guard([slot, column, is_null] { return slot_getattr(slot, column, is_null); });
    });
  }

  Datum LockedStream(const Columns& columns) const {
    TupleTableSlot* slot = slot_;
    const int column = columns.stream;
    return Guard([slot, column] {
      bool is_null = false;
      return datumCopy(slot_getattr(slot, column, &is_null), false, -1);
    });
  }

  int Column(const char* name) const { return ColumnNumber(table_, name); }

 private:
  Relation table_ = nullptr;
  TupleTableSlot* slot_ = nullptr;
};

class Claim {
 public:
  Claim(const ClaimRequest& request, std::optional<int64> horizon)
      : request_(request), horizon_(horizon), now_(Guard([] { return GetCurrentTransactionStartTimestamp(); })) {
    columns_.stream = locker_.Column("stream");
    columns_.at = locker_.Column("at");
    columns_.correlated_at = locker_.Column("correlated_at");
    columns_.blocked = locker_.Column("blocked");
    columns_.leased_by = locker_.Column("leased_by");
    columns_.leased_until = locker_.Column("leased_until");
    columns_.deferred_at = locker_.Column("deferred_at");
    columns_.last = std::max({columns_.stream, columns_.at, columns_.correlated_at, columns_.blocked,
                              columns_.leased_by, columns_.leased_until, columns_.deferred_at});
  }

  // Each frontier takes its best `count` rows that no competing claim holds,
  // trying at most four times that many available candidates in its order
  // (the claim statement's bound: a claim costs O(streams claimed) however
  // many rows others hold). With exactly the best rows, workers starting
  // together would find them all taken and come back with nothing.
  void Take(Frontier frontier, int32 count, int64 candidates) {
    if (count <= 0) return;
    const bool lane = request_.lane.has_value();
    const char* index = frontier == Frontier::kPriority
                            ? (lane ? "subscriptions_work_lane_priority_ix" : "subscriptions_work_priority_ix")
                            : (lane ? "subscriptions_work_lane_at_ix" : "subscriptions_work_at_ix");
    IndexScan scan(kTable, index, request_.lane, ScanSnapshot::kActive, frontier == Frontier::kLeading);
    int32 taken = 0;
    int64 seen = 0;
    while (taken < count && seen < candidates && scan.NextDeformed(columns_.last)) {
      const RowState row =
          ReadState(columns_, [&scan](int column, bool* is_null) { return scan.DeformedAt(column, is_null); });
      if (!Available(row, now_, horizon_)) continue;
      ++seen;
      const ItemPointerData candidate = scan.Tid();
      const Held* held = HeldAt(candidate, &Held::candidate);
      if (held == nullptr) {
        const RowLocker::Outcome lock = locker_.Lock(candidate);
        if (!lock.locked) continue;
        held = HeldAt(lock.tid, &Held::locked);
        if (held == nullptr) {
          if (lock.followed) {
            const RowState newest = locker_.LockedState(columns_);
            if (!HasStoredWork(newest) || !Available(newest, now_, horizon_)) continue;
          }
          held_.push_back(Held{candidate, lock.tid, frontier,
                               frontier == Frontier::kLeading ? locker_.LockedStream(columns_) : Datum(0)});
          ++taken;
          continue;
        }
      }
      // A row this claim already holds: the fairness frontier passes over
      // the priority frontier's rows (its candidates leave room for them);
      // the leading frontier counts them as taken, as the claim statement's
      // grouping does.
      if (frontier == Frontier::kLeading) ++taken;
    }
  }

  // Writes the leases; the claimed rows are left in SPI_tuptable.
  void Grant() {
    if (held_.empty()) {
      Guard([] {
        if (SPI_tuptable != nullptr) SPI_freetuptable(SPI_tuptable);
        SPI_tuptable = nullptr;
        SPI_processed = 0;
      });
      return;
    }
    std::vector<Datum> tids;
    std::vector<Datum> leading_only;
    for (Held& held : held_) {
      tids.push_back(PointerGetDatum(&held.locked));
      if (held.frontier == Frontier::kLeading) leading_only.push_back(held.stream);
    }
    Datum args[4] = {request_.by, Int32GetDatum(request_.millis), MakeArray(tids, nullptr, TIDOID),
                     MakeArray(leading_only, nullptr, TEXTOID)};
    Execute(g_grant_plan.Get(), args, nullptr, false, 0, SPI_OK_SELECT);
  }

 private:
  const Held* HeldAt(const ItemPointerData& tid, ItemPointerData Held::*where) const {
    for (const Held& held : held_)
      if (SameTid(held.*where, tid)) return &held;
    return nullptr;
  }

  const ClaimRequest& request_;
  std::optional<int64> horizon_;
  TimestampTz now_;
  RowLocker locker_;
  Columns columns_{};
  std::vector<Held> held_;
};

// The walks read one snapshot, taken now (after the horizon was read: every
// commit at or below it is in view), as the claim statement did.
class WalkSnapshot {
 public:
  WalkSnapshot() {
    Guard([] {
      CommandCounterIncrement();  // this transaction's acks are seen
      PushActiveSnapshot(GetTransactionSnapshot());
    });
  }
  // Left pushed when an error unwinds: the abort that follows pops it (the
  // error may have left another snapshot above it).
  ~WalkSnapshot() {
    if (std::uncaught_exceptions() > 0) return;
    try {
      Guard([] { PopActiveSnapshot(); });
    } catch (...) {
      // Nothing to undo: the transaction's end releases snapshots.
    }
  }
  WalkSnapshot(const WalkSnapshot&) = delete;
  WalkSnapshot& operator=(const WalkSnapshot&) = delete;
};

}  // namespace

void WalkClaim(const ClaimRequest& request, std::optional<int64> horizon) {
  const core::ClaimCounts& counts = request.counts;
  Claim claim(request, horizon);
  {
    WalkSnapshot snapshot;
    claim.Take(Frontier::kPriority, counts.priority, int64{counts.priority} * 4);
    claim.Take(Frontier::kFairness, counts.fairness, (int64{counts.priority} + counts.fairness) * 4);
    claim.Take(Frontier::kLeading, counts.leading, int64{counts.leading} * 4);
  }
  claim.Grant();
}

}  // namespace act::pg
