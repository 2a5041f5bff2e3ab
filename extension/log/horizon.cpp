#include "horizon.hpp"

#include <algorithm>
#include <string>

#include "act/core/errors.hpp"
#include "horizon_beacon.hpp"
#include "primary_only.hpp"
#include "relations.hpp"
#include "shared_memory.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "commands/sequence.h"
#include "log/horizon_sql.hpp"
#include "port/atomics.h"
#include "storage/bufmgr.h"
#include "storage/condition_variable.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/wait_event.h"
}

namespace act::pg {
namespace {

struct InflightSlot {
  pg_atomic_uint64 bound;  // 0: nothing in flight (ids start at 1)
  Oid database;
  int pid;
  TimestampTz since;
};

// Followed in the same area by MaxBackends slots, from kSlotsOffset on
// (C++ has no flexible array member).
struct SharedHorizon {
  ConditionVariable advanced;  // broadcast whenever a bound is withdrawn
  int slot_count;
};
constexpr Size kSlotsOffset =
    (sizeof(SharedHorizon) + alignof(InflightSlot) - 1) / alignof(InflightSlot) * alignof(InflightSlot);

SharedHorizon* g_shared = nullptr;
InflightSlot* g_slots = nullptr;  // g_shared's slots
bool g_concurrent = false;
bool g_published = false;  // this backend's slot holds a bound for the current transaction
int64 g_highest_taken = 0;  // the highest id this transaction's commits took; 0: none
Size SharedSize() { return add_size(kSlotsOffset, mul_size(static_cast<Size>(MaxBackends), sizeof(InflightSlot))); }

void AttachShared(void* memory, bool found) {
  g_shared = static_cast<SharedHorizon*>(memory);
  g_slots = reinterpret_cast<InflightSlot*>(static_cast<char*>(memory) + kSlotsOffset);
  if (found) return;
  ConditionVariableInit(&g_shared->advanced);
  g_shared->slot_count = MaxBackends;
  for (int i = 0; i < MaxBackends; ++i) {
    pg_atomic_init_u64(&g_slots[i].bound, 0);
    g_slots[i].database = InvalidOid;
    g_slots[i].pid = 0;
    g_slots[i].since = 0;
  }
}

InflightSlot& MySlot() { return g_slots[MyBackendId - 1]; }

// Runs after the commit is visible to others (or after the abort).
void Withdraw() {
  if (!g_published) return;
  g_published = false;
  pg_atomic_write_u64(&MySlot().bound, 0);
  pg_memory_barrier();
  ConditionVariableBroadcast(&g_shared->advanced);
}

void OnTransactionEvent(XactEvent event, void*) {
  switch (event) {
    case XACT_EVENT_COMMIT:
      // Settled before the bound goes: the beacon sees one or the other.
      if (g_published) SettleCommitted(g_highest_taken);
      g_highest_taken = 0;
      Withdraw();
      break;
    case XACT_EVENT_ABORT:
      g_highest_taken = 0;
      Withdraw();
      break;
    case XACT_EVENT_PRE_PREPARE:
      // The ids would become visible at COMMIT PREPARED, in another backend.
      if (g_published)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("a transaction that committed events cannot be prepared in concurrent mode")));
      break;
    default:
      break;
  }
}

void OnExit(int, Datum) { Withdraw(); }

const Oid kNoArgs[1] = {InvalidOid};
SavedPlan g_max_visible_plan(horizon_sql::kMaxVisible, 0, kNoArgs);

// The last id taken from the sequence (0 when none yet): with CACHE 1 every
// later nextval() returns more than this. Read from the sequence's page under
// a share lock: pg_sequence_last_value() takes the page's exclusive lock,
// which every commit's nextval() then waits on.
int64 HighWater() {
  return Guard([] {
    Relation sequence = relation_open(ActRelation("events_id_seq"), AccessShareLock);
    const Buffer buffer = ReadBuffer(sequence, 0);
    LockBuffer(buffer, BUFFER_LOCK_SHARE);
    const Page page = BufferGetPage(buffer);
    const auto tuple = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, PageGetItemId(page, FirstOffsetNumber)));
    const auto data = reinterpret_cast<Form_pg_sequence_data>(reinterpret_cast<char*>(tuple) + tuple->t_hoff);
    const int64 last = data->is_called ? data->last_value : 0;
    UnlockReleaseBuffer(buffer);
    relation_close(sequence, NoLock);
    return last;
  });
}

int64 QueryInt64(SavedPlan& plan) {
  Execute(plan.Get(), nullptr, nullptr, false, 1, SPI_OK_SELECT);
  return RowInt64(0, 1).value_or(-1);
}

// The lowest bound `database`'s transactions in flight have published,
// slot `skipped` left out (-1: none); 0 when none is in flight.
uint64 LowestBound(Oid database, int skipped) {
  uint64 lowest = 0;
  for (int i = 0; i < g_shared->slot_count; ++i) {
    if (i == skipped) continue;
    InflightSlot& slot = g_slots[i];
    const uint64 bound = pg_atomic_read_u64(&slot.bound);
    pg_read_barrier();
    if (bound == 0 || slot.database != database) continue;
    if (lowest == 0 || bound < lowest) lowest = bound;
  }
  return lowest;
}

int64 ConcurrentHorizon() {
  // A standby cannot see the primary's in-flight commits: it reads up to
  // the last horizon the primary's beacon wrote and it has replayed.
  if (Guard([] { return RecoveryInProgress(); })) return ReplayedHorizon().value_or(-1);
  // Read the high-water mark first: a bound published after our scan belongs
  // to ids above it.
  const int64 high_water = HighWater();
  pg_memory_barrier();
  // This backend's own bound is skipped: its uncommitted events are visible
  // to itself, so for its own reads they hold nothing back.
  const uint64 lowest = LowestBound(MyDatabaseId, MyBackendId - 1);
  const int64 horizon = lowest == 0 ? high_water : std::min<int64>(high_water, static_cast<int64>(lowest) - 1);
  return horizon < 1 ? -1 : horizon;
}

}  // namespace

bool ConcurrentMode() { return g_concurrent; }

void InstallConcurrentMode() {
  g_concurrent = true;
  RegisterSharedArea({"pg_act horizon", SharedSize, AttachShared});
  InstallHorizonBeacon();
  RegisterXactCallback(OnTransactionEvent, nullptr);
  before_shmem_exit(OnExit, 0);
}

void PublishInflight() {
  if (!g_concurrent || g_published) return;
  RequirePrimary("taking event ids");
  if (MyBackendId < 1 || MyBackendId > g_shared->slot_count)
    throw core::SqlError(core::sqlstate::kInternalError, "pg_act: this process has no horizon slot");
  int64 high_water = HighWater();
  InflightSlot& slot = MySlot();
  slot.database = MyDatabaseId;
  slot.pid = MyProcPid;
  slot.since = GetCurrentTimestamp();
  pg_write_barrier();
  pg_atomic_write_u64(&slot.bound, static_cast<uint64>(high_water + 1));
  g_published = true;
  // Readers must see the bound before any id we take is used.
  pg_memory_barrier();
  // Ids others took and committed between the read and the publication are
  // below every id we will take: raise the bound past them at once. A bound
  // left that low would pull act.horizon() below what readers have already
  // been given for as long as this transaction runs (true, but an ack of
  // what they read would then be refused as beyond the horizon).
  // A few rounds at most: under a stream of commits the high-water mark may
  // keep rising, and each round only narrows the window.
  int64 now = HighWater();
  for (int round = 0; round < 4 && now > high_water; ++round, now = HighWater()) {
    high_water = now;
    pg_atomic_write_u64(&slot.bound, static_cast<uint64>(high_water + 1));
    pg_memory_barrier();
  }
}

// Fenced mode: the highest visible id, never less than what this backend
// returned before. The visible maximum can fall in the writer's own session:
// it counts the transaction's own uncommitted events, which a rollback burns.
// The value returned stays true after that rollback: the transaction held
// the fence, so every lower id was settled, and its own ids never appear.
// Kept per log (the events table's OID): DROP and CREATE EXTENSION start a
// new one.
int64 FencedHorizon() {
  static Oid remembered_log = InvalidOid;
  static int64 remembered = -1;
  const int64 visible = QueryInt64(g_max_visible_plan);
  const Oid log = Guard([] { return ActRelation("events"); });
  if (log != remembered_log) {
    remembered_log = log;
    remembered = -1;
  }
  remembered = std::max(remembered, visible);
  return remembered;
}

int64 Horizon() { return g_concurrent ? ConcurrentHorizon() : FencedHorizon(); }

int64 WaitForHorizon(int64 after, int timeout_ms) {
  const TimestampTz deadline = GetCurrentTimestamp() + static_cast<TimestampTz>(timeout_ms) * 1000;
  if (!g_concurrent) {
    // Fenced mode polls, asleep on the latch: a cancel ends the sleep, and
    // pg_stat_activity shows the wait as act.wait's in concurrent mode.
    for (;;) {
      const int64 horizon = Horizon();
      const TimestampTz now = GetCurrentTimestamp();
      if (horizon > after || now >= deadline) return horizon;
      Guard([] {
        (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10L, PG_WAIT_EXTENSION);
        ResetLatch(MyLatch);
        CHECK_FOR_INTERRUPTS();
      });
    }
  }
  ConditionVariable* advanced = &g_shared->advanced;
  Guard([advanced] { ConditionVariablePrepareToSleep(advanced); });
  int64 horizon = -1;
  for (;;) {
    horizon = Horizon();
    const TimestampTz now = GetCurrentTimestamp();
    if (horizon > after || now >= deadline) break;
    const long remaining_ms = static_cast<long>((deadline - now + 999) / 1000);
    Guard([advanced, remaining_ms] { ConditionVariableTimedSleep(advanced, remaining_ms, PG_WAIT_EXTENSION); });
  }
  Guard([] { ConditionVariableCancelSleep(); });
  return horizon;
}

void NoteIdsTaken(int64 highest) { g_highest_taken = std::max(g_highest_taken, highest); }

uint64 LowestInflightBound(Oid database) { return LowestBound(database, -1); }

void WakeHorizonWaiters() {
  if (g_shared != nullptr) ConditionVariableBroadcast(&g_shared->advanced);
}

std::vector<InflightHolder> InflightHolders() {
  std::vector<InflightHolder> holders;
  if (!g_concurrent) return holders;
  for (int i = 0; i < g_shared->slot_count; ++i) {
    InflightSlot& slot = g_slots[i];
    const uint64 bound = pg_atomic_read_u64(&slot.bound);
    pg_read_barrier();
    if (bound == 0 || slot.database != MyDatabaseId) continue;
    holders.push_back({slot.pid, slot.since, static_cast<int64>(bound)});
  }
  std::sort(holders.begin(), holders.end(),
            [](const InflightHolder& a, const InflightHolder& b) { return a.lowest_id < b.lowest_id; });
  return holders;
}

}  // namespace act::pg
