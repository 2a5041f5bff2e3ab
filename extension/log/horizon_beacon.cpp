// Background workers and WAL replay only call Postgres's C API here (no C++
// objects, no exceptions): the beacon worker ends the way Postgres ends any
// worker and restarts a second later; the redo must never fail.
#include "horizon_beacon.hpp"

#include <algorithm>

#include "background_worker.hpp"
#include "horizon.hpp"
#include "settings.hpp"
#include "shared_memory.hpp"

extern "C" {
#include "access/rmgr.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/timestamp.h"
}

extern "C" {
PGDLLEXPORT void act_horizon_beacon_main(Datum);
}

namespace act::pg {
namespace {

// pg_act's WAL resource manager (custom ids are 128-255; a cluster may use
// each once). One record kind: a database's horizon.
constexpr RmgrId kRmgrId = 173;
constexpr uint8 kHorizonRecord = 0x10;
struct HorizonRecord {
  Oid database;
  int64 horizon;
};

constexpr int kDatabaseSlots = 1024;
constexpr long kResendMs = 1000;  // a horizon standing still is sent again this often

struct DatabaseMarks {
  pg_atomic_uint32 database;  // InvalidOid: free; taken once, never given back
  pg_atomic_uint64 settled;   // primary: every id up to it settled but for in-flight bounds; 0: none yet
  pg_atomic_uint64 replayed;  // standby: the last horizon replayed; 0: none yet
  // The beacon worker's own bookkeeping.
  uint64 published;
  TimestampTz published_at;
};
struct BeaconShared {
  DatabaseMarks databases[kDatabaseSlots];
};
BeaconShared* g_beacon = nullptr;

Size BeaconSize() { return sizeof(BeaconShared); }

void AttachBeacon(void* memory, bool found) {
  g_beacon = static_cast<BeaconShared*>(memory);
  if (found) return;
  for (DatabaseMarks& marks : g_beacon->databases) {
    pg_atomic_init_u32(&marks.database, InvalidOid);
    pg_atomic_init_u64(&marks.settled, 0);
    pg_atomic_init_u64(&marks.replayed, 0);
    marks.published = 0;
    marks.published_at = 0;
  }
}

// The slot of `database`, taken if it has none; null when every slot is
// another database's (that database's standby horizon then stays unknown).
DatabaseMarks* MarksOf(Oid database, bool take) {
  if (g_beacon == nullptr || database == InvalidOid) return nullptr;
  for (DatabaseMarks& marks : g_beacon->databases) {
    uint32 holder = pg_atomic_read_u32(&marks.database);
    if (holder == database) return &marks;
    if (holder != InvalidOid) continue;
    if (!take) return nullptr;  // slots are taken in order: none further holds it
    if (pg_atomic_compare_exchange_u32(&marks.database, &holder, database) || holder == database) return &marks;
  }
  return nullptr;
}

void RaiseTo(pg_atomic_uint64* value, uint64 target) {
  uint64 current = pg_atomic_read_u64(value);
  while (current < target && !pg_atomic_compare_exchange_u64(value, &current, target)) {
  }
}

void RedoHorizon(XLogReaderState* record) {
  if ((XLogRecGetInfo(record) & ~XLR_INFO_MASK) != kHorizonRecord || XLogRecGetDataLen(record) != sizeof(HorizonRecord))
    return;  // not ours to understand: a later version's record kind
  HorizonRecord data;
  memcpy(&data, XLogRecGetData(record), sizeof data);
  DatabaseMarks* marks = MarksOf(data.database, true);
  if (marks == nullptr || data.horizon < 1) return;
  RaiseTo(&marks->replayed, static_cast<uint64>(data.horizon));
  WakeHorizonWaiters();
}

void DescribeHorizon(StringInfo buffer, XLogReaderState* record) {
  if (XLogRecGetDataLen(record) != sizeof(HorizonRecord)) return;
  HorizonRecord data;
  memcpy(&data, XLogRecGetData(record), sizeof data);
  appendStringInfo(buffer, "database %u horizon " INT64_FORMAT, data.database, data.horizon);
}

const char* IdentifyHorizon(uint8 info) { return (info & ~XLR_INFO_MASK) == kHorizonRecord ? "HORIZON" : nullptr; }

RmgrData g_rmgr = {
    "pg_act", RedoHorizon, DescribeHorizon, IdentifyHorizon, nullptr, nullptr, nullptr, nullptr,
};

// One pass: a record for each database whose horizon moved, or stood still
// for kResendMs. Returns the last record's end, or InvalidXLogRecPtr.
XLogRecPtr PublishHorizons() {
  XLogRecPtr last = InvalidXLogRecPtr;
  const TimestampTz now = GetCurrentTimestamp();
  for (DatabaseMarks& marks : g_beacon->databases) {
    const Oid database = pg_atomic_read_u32(&marks.database);
    if (database == InvalidOid) break;
    // The settled mark before the bounds: a bound published after this
    // read lies above it (horizon.cpp reads its high-water mark first alike).
    const uint64 settled = pg_atomic_read_u64(&marks.settled);
    pg_memory_barrier();
    if (settled == 0) continue;
    const uint64 lowest = LowestInflightBound(database);
    const uint64 horizon = lowest == 0 ? settled : std::min<uint64>(settled, lowest - 1);
    if (horizon == 0) continue;
    const bool moved = horizon > marks.published;
    if (!moved && !TimestampDifferenceExceeds(marks.published_at, now, kResendMs)) continue;
    HorizonRecord data{database, static_cast<int64>(std::max(horizon, marks.published))};
    XLogBeginInsert();
    XLogRegisterData(reinterpret_cast<char*>(&data), sizeof data);
    last = XLogInsert(kRmgrId, kHorizonRecord);
    marks.published = static_cast<uint64>(data.horizon);
    marks.published_at = now;
  }
  return last;
}

}  // namespace

void InstallHorizonBeacon() {
  RegisterSharedArea({"pg_act horizon beacon", BeaconSize, AttachBeacon});
  RegisterCustomRmgr(kRmgrId, &g_rmgr);
  BackgroundWorker worker;
  FillWorker(&worker, "pg_act horizon beacon", "act_horizon_beacon_main");
  worker.bgw_restart_time = 1;
  RegisterBackgroundWorker(&worker);
}

void SettleCommitted(int64 high_water) {
  if (high_water < 1) return;
  DatabaseMarks* marks = MarksOf(MyDatabaseId, true);
  if (marks != nullptr) RaiseTo(&marks->settled, static_cast<uint64>(high_water));
}

std::optional<int64> ReplayedHorizon() {
  const DatabaseMarks* marks = MarksOf(MyDatabaseId, false);
  if (marks == nullptr) return std::nullopt;
  const uint64 replayed = pg_atomic_read_u64(const_cast<pg_atomic_uint64*>(&marks->replayed));
  if (replayed == 0) return std::nullopt;
  return static_cast<int64>(replayed);
}

}  // namespace act::pg

void act_horizon_beacon_main(Datum) {
  pqsignal(SIGHUP, SignalHandlerForConfigReload);
  pqsignal(SIGTERM, die);
  BackgroundWorkerUnblockSignals();
  BackgroundWorkerInitializeConnection(nullptr, nullptr, 0);  // no database: DROP DATABASE never waits for it
  pgstat_report_activity(STATE_IDLE, nullptr);
  XLogRecPtr unflushed = InvalidXLogRecPtr;
  for (;;) {
    const int interval = act::pg::g_horizon_beacon_ms > 0 ? act::pg::g_horizon_beacon_ms : 1000;
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, interval, PG_WAIT_EXTENSION);
    ResetLatch(MyLatch);
    CHECK_FOR_INTERRUPTS();
    if (ConfigReloadPending) {
      ConfigReloadPending = false;
      ProcessConfigFile(PGC_SIGHUP);
    }
    // The last pass's records go to the standbys with the next commit's
    // flush; when no commit came within an interval, flush them here.
    if (unflushed != InvalidXLogRecPtr && GetFlushRecPtr(nullptr) < unflushed) XLogFlush(unflushed);
    unflushed = InvalidXLogRecPtr;
    // Without standbys (wal_level minimal) there is nobody to tell.
    if (act::pg::g_horizon_beacon_ms <= 0 || !XLogStandbyInfoActive()) continue;
    unflushed = act::pg::PublishHorizons();
  }
}
