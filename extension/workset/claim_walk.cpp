#include "claim_walk.hpp"

#include <exception>
#include <map>
#include <memory>
#include <vector>

#include "arrays.hpp"
#include "claim_rows.hpp"
#include "index_scan.hpp"
#include "locks.hpp"
#include "row_locker.hpp"
#include "settings.hpp"
#include "spi.hpp"
#include "workset/claim_sql.hpp"

extern "C" {
#include "catalog/pg_collation_d.h"
#include "utils/varlena.h"
}

namespace act::pg {
namespace {

constexpr char kTable[] = "subscription_rows";

const Oid kGrantArgTypes[] = {TEXTOID, INT4OID, TIDARRAYOID, TEXTARRAYOID};
// Tid scans whatever the arrays' lengths: planned once.
SavedPlan g_grant_plan(claim_sql::kGrant, 4, kGrantArgTypes, PlanMode::kGeneric);

enum class Frontier { kPriority, kFairness, kLeading };

// A wide class with a mark, and the priority levels of its rows (highest
// first) in the claim's lane.
struct MarkedClass {
  ClassMark mark;
  std::vector<int32> levels;
};

// One ordered source of candidates: the work-set index, or one priority
// level of one marked class's rows below its mark (a range of the class
// index, so the class's rows without work are not read). Yields only the
// rows a claim could take now.
class Cursor {
 public:
  Cursor(const char* index, const IndexKey* keys, int key_count, bool backward, const MarkedClass* marked,
         const ClaimColumns& columns, TimestampTz now, std::optional<int64> horizon)
      : scan_(kTable, index, keys, key_count, ScanSnapshot::kActive, backward),
        marked_(marked),
        columns_(columns),
        now_(now),
        horizon_(horizon) {}

  bool Advance() {
    IndexScan& scan = scan_;
    while (scan.NextDeformed(columns_.last)) {
      row_ = ReadClaimRow(columns_, [&scan](int column, bool* is_null) { return scan.DeformedAt(column, is_null); });
      if (marked_ != nullptr && !HasClassWork(row_, marked_->mark)) continue;
      if (!Available(row_, now_, horizon_)) continue;
      bool is_null = false;
      stream_ = scan.DeformedAt(columns_.stream, &is_null);
      tid_ = scan.Tid();
      return (live_ = true);
    }
    return (live_ = false);
  }

  bool live() const { return live_; }
  const ClaimRow& row() const { return row_; }
  Datum stream() const { return stream_; }  // valid until the next Advance
  ItemPointerData tid() const { return tid_; }
  // The candidate's version was updated or deleted since it was read (its
  // slot is the scan's until the next Advance).
  bool superseded() const { return scan_.Superseded(); }
  const MarkedClass* marked() const { return marked_; }

 private:
  IndexScan scan_;
  const MarkedClass* marked_;
  const ClaimColumns& columns_;
  TimestampTz now_;
  std::optional<int64> horizon_;
  bool live_ = false;
  ClaimRow row_;
  Datum stream_ = Datum(0);
  ItemPointerData tid_{};
};

int CompareStreams(Datum a, Datum b) {
  const std::string_view left = VarlenaBytes(a), right = VarlenaBytes(b);
  const std::string_view* l = &left;
  const std::string_view* r = &right;
  // The indexes' order: the column's collation, the database's default.
  return Guard([l, r] {
    return varstr_cmp(l->data(), static_cast<int>(l->size()), r->data(), static_cast<int>(r->size()),
                      DEFAULT_COLLATION_OID);
  });
}

// Whether `a`'s candidate comes before `b`'s in the frontier's order:
// priority (highest first), then the oldest watermark, then the stream; the
// leading frontier takes the newest watermarks first.
bool Before(Frontier frontier, const Cursor& a, const Cursor& b) {
  if (frontier == Frontier::kPriority && a.row().priority != b.row().priority)
    return a.row().priority > b.row().priority;
  if (a.row().at != b.row().at)
    return frontier == Frontier::kLeading ? a.row().at > b.row().at : a.row().at < b.row().at;
  const int order = CompareStreams(a.stream(), b.stream());
  return frontier == Frontier::kLeading ? order > 0 : order < 0;
}

// A row this claim holds: where the walk read it, the version its lock is on
// (newer when the row was updated since), the frontier that took it (the
// stream kept for the grant when only the leading one did).
struct Held {
  ItemPointerData candidate;
  ItemPointerData locked;
  Frontier frontier;
  Datum stream;
};

bool SameTid(const ItemPointerData& a, const ItemPointerData& b) {
  return ItemPointerEquals(const_cast<ItemPointerData*>(&a), const_cast<ItemPointerData*>(&b));
}

class Claim {
 public:
  Claim(const ClaimRequest& request, std::optional<int64> horizon)
      : request_(request),
        horizon_(horizon),
        now_(Guard([] { return GetCurrentTransactionStartTimestamp(); })),
        columns_(ClaimColumnsOf(locker_.table())) {}

  // Every wide class's highest mark, and its rows' priority levels.
  void ReadMarks() {
    std::map<int32, int64> marks;
    {
      IndexScan scan("wide_marks", "wide_marks_pkey", std::nullopt, ScanSnapshot::kActive);
      const int wide_class = scan.Column("class"), mark = scan.Column("mark");
      while (scan.Next()) {
        const int32 key = *scan.Int32At(wide_class);
        const int64 value = *scan.Int64At(mark);
        auto [at, added] = marks.emplace(key, value);
        if (!added && at->second < value) at->second = value;
      }
    }
    for (const auto& [wide_class, mark] : marks) {
      MarkedClass marked{ClassMark{wide_class, mark}, Levels(wide_class)};
      if (!marked.levels.empty()) marked_.push_back(std::move(marked));
    }
  }

  // Each frontier takes its best `count` rows that no competing claim holds,
  // reading past every row another transaction holds, as SKIP LOCKED with a
  // LIMIT does: however many workers claim at once, a claim comes back short
  // only when the work is not there. What it reads beyond its count is the
  // rows competitors hold, lease or changed at that moment, and the entries
  // rows acked since the last vacuum left (the cursors pass over those
  // uncounted), not the whole work set.
  void Take(Frontier frontier, int32 count) {
    if (count <= 0) return;
    std::vector<std::unique_ptr<Cursor>> cursors = CursorsFor(frontier);
    for (auto& cursor : cursors) cursor->Advance();
    for (int32 taken = 0; taken < count;) {
      Cursor* best = nullptr;
      for (auto& cursor : cursors)
        if (cursor->live() && (best == nullptr || Before(frontier, *cursor, *best))) best = cursor.get();
      if (best == nullptr) break;
      if (TakeOne(frontier, *best)) ++taken;
      best->Advance();
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
  bool by_lane() const { return request_.lane.has_value(); }

  // The priority levels of a class's rows in the claim's lane, highest
  // first: one index descent each.
  std::vector<int32> Levels(int32 wide_class) {
    std::vector<int32> levels;
    for (;;) {
      IndexKey keys[3];
      int count = 0;
      keys[count++] = IndexKey{1, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(wide_class)};
      if (by_lane()) keys[count++] = IndexKey{2, BTEqualStrategyNumber, F_TEXTEQ, *request_.lane};
      if (!levels.empty()) {
        const auto priority_column = static_cast<AttrNumber>(count + 1);
        keys[count++] = IndexKey{priority_column, BTLessStrategyNumber, F_INT4LT, Int32GetDatum(levels.back())};
      }
      IndexScan scan(kTable, ClassIndex(), keys, count, ScanSnapshot::kActive, true);
      if (!scan.Next()) return levels;
      levels.push_back(*scan.Int32At(columns_.priority));
    }
  }

  const char* ClassIndex() const { return by_lane() ? "subscriptions_class_lane_ix" : "subscriptions_class_ix"; }

  std::vector<std::unique_ptr<Cursor>> CursorsFor(Frontier frontier) {
    const bool backward = frontier == Frontier::kLeading;
    std::vector<std::unique_ptr<Cursor>> cursors;
    const char* work_set = frontier == Frontier::kPriority
                               ? (by_lane() ? "subscriptions_work_lane_priority_ix" : "subscriptions_work_priority_ix")
                               : (by_lane() ? "subscriptions_work_lane_at_ix" : "subscriptions_work_at_ix");
    IndexKey lane_key{1, BTEqualStrategyNumber, F_TEXTEQ, request_.lane.value_or(Datum(0))};
    cursors.push_back(
        std::make_unique<Cursor>(work_set, &lane_key, by_lane() ? 1 : 0, backward, nullptr, columns_, now_, horizon_));
    for (const MarkedClass& marked : marked_) {
      for (const int32 level : marked.levels) {
        IndexKey keys[4];
        int count = 0;
        keys[count++] = IndexKey{1, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(marked.mark.wide_class)};
        if (by_lane()) keys[count++] = IndexKey{2, BTEqualStrategyNumber, F_TEXTEQ, *request_.lane};
        const auto priority_column = static_cast<AttrNumber>(count + 1);
        keys[count++] = IndexKey{priority_column, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(level)};
        // Below the mark: the class's rows that have its work.
        keys[count++] = IndexKey{static_cast<AttrNumber>(priority_column + 1), BTLessStrategyNumber, F_INT8LT,
                                 Int64GetDatum(marked.mark.mark)};
        cursors.push_back(
            std::make_unique<Cursor>(ClassIndex(), keys, count, backward, &marked, columns_, now_, horizon_));
      }
    }
    return cursors;
  }

  // Locks the cursor's candidate unless another claim holds it; whether it
  // counts as taken.
  bool TakeOne(Frontier frontier, const Cursor& cursor) {
    const ItemPointerData candidate = cursor.tid();
    if (const Held* held = HeldAt(candidate, &Held::candidate)) return Again(frontier, *held);
    if (g_test_claim_gate > 0) WaitForAdvisoryLock(g_test_claim_gate);
    // Updated since it was read, as a competitor's lease or ack does: its
    // newest version is read first and passed over unlocked when it is no
    // longer claimable. A lock taken on it would be kept to the end of this
    // transaction, and the competitor's next ack of the row would wait for it.
    if (!locker_.xact_snapshot() && cursor.superseded() &&
        (!locker_.Peek(candidate) || !Claimable(locker_.Locked(columns_), cursor)))
      return false;
    const RowLocker::Outcome lock = locker_.Lock(candidate);
    if (!lock.locked) return false;
    if (const Held* held = HeldAt(lock.tid, &Held::locked)) return Again(frontier, *held);
    // Updated since it was read: taken only if the newest version still has
    // work and is free (the lock is kept either way, as the executor's row
    // locks keep theirs).
    if (lock.followed && !Claimable(locker_.Locked(columns_), cursor)) return false;
    held_.push_back(Held{candidate, lock.tid, frontier,
                         frontier == Frontier::kLeading ? locker_.LockedStream(columns_) : Datum(0)});
    return true;
  }

  // Whether a newer version of the cursor's candidate still has work and is free.
  bool Claimable(const ClaimRow& newest, const Cursor& cursor) const {
    const bool has_work =
        HasStoredWork(newest) || (cursor.marked() != nullptr && HasClassWork(newest, cursor.marked()->mark));
    return has_work && Available(newest, now_, horizon_);
  }

  // A row this claim already holds: the fairness frontier passes over the
  // priority frontier's rows and reads on; the leading frontier counts them
  // as taken, as the claim statement did.
  static bool Again(Frontier frontier, const Held&) { return frontier == Frontier::kLeading; }

  const Held* HeldAt(const ItemPointerData& tid, ItemPointerData Held::*where) const {
    for (const Held& held : held_)
      if (SameTid(held.*where, tid)) return &held;
    return nullptr;
  }

  const ClaimRequest& request_;
  std::optional<int64> horizon_;
  TimestampTz now_;
  RowLocker locker_;
  ClaimColumns columns_;
  std::vector<MarkedClass> marked_;
  std::vector<Held> held_;
};

// The walks read one snapshot, taken now: after the horizon was read, so
// every commit at or below it is in view, marks included (a mark committed
// since belongs to work a later claim finds).
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
    claim.ReadMarks();
    claim.Take(Frontier::kPriority, counts.priority);
    claim.Take(Frontier::kFairness, counts.fairness);
    claim.Take(Frontier::kLeading, counts.leading);
  }
  claim.Grant();
}

}  // namespace act::pg
