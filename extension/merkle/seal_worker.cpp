// Background workers only call Postgres's C API here (no C++ objects, no
// exceptions): an error ends the worker the way Postgres ends any worker, and
// the launcher starts the next one at the next interval. The sealing itself
// runs through SQL (SELECT act.seal()), inside the error bridge.
#include "seal_worker.hpp"

#include <algorithm>

#include "background_worker.hpp"
#include "pg.hpp"

extern "C" {
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/tableam.h"
#include "catalog/pg_database.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/spin.h"
#include "tcop/tcopprot.h"
#include "utils/snapmgr.h"
}

#include "settings.hpp"
#include "shared_memory.hpp"

extern "C" {
PGDLLEXPORT void act_seal_launcher_main(Datum);
PGDLLEXPORT void act_seal_database_main(Datum);
}

namespace act::pg {
namespace {

constexpr int kDatabaseSlots = 1024;  // as many as a launcher pass lists
constexpr int kMaxSealersAtOnce = 2;
constexpr long kRecheckWithoutLogMs = 5000;

// When each database may get its next sealer: one interval after the
// launcher started the last one (a sealer's end wakes the launcher, which
// must not start the next at once), or a few seconds after a sealer found
// the database without the log. Shared: the sealers write the second.
struct NextSeal {
  Oid database;
  TimestampTz not_before;
};
struct SealShared {
  slock_t mutex;
  NextSeal next[kDatabaseSlots];
};
SealShared* g_seal_shared = nullptr;

Size SealSharedSize() { return sizeof(SealShared); }

void AttachSealShared(void* memory, bool found) {
  g_seal_shared = static_cast<SealShared*>(memory);
  if (found) return;
  SpinLockInit(&g_seal_shared->mutex);
  for (NextSeal& slot : g_seal_shared->next) slot = {InvalidOid, 0};
}

// No sealer starts in `database` before `not_before`. With every slot taken,
// the one whose time passed longest ago gives way.
void DeferSealing(Oid database, TimestampTz not_before) {
  SpinLockAcquire(&g_seal_shared->mutex);
  NextSeal* target = &g_seal_shared->next[0];
  for (NextSeal& slot : g_seal_shared->next) {
    if (slot.database == database) {
      target = &slot;
      break;
    }
    if (slot.not_before < target->not_before) target = &slot;
  }
  *target = {database, not_before};
  SpinLockRelease(&g_seal_shared->mutex);
}

bool SealingDeferred(Oid database, TimestampTz now) {
  bool deferred = false;
  SpinLockAcquire(&g_seal_shared->mutex);
  for (const NextSeal& slot : g_seal_shared->next)
    if (slot.database == database) {
      deferred = slot.not_before > now;
      break;
    }
  SpinLockRelease(&g_seal_shared->mutex);
  return deferred;
}

// The databases one may connect to, into `databases` (at most `capacity`).
int ListDatabases(Oid* databases, int capacity) {
  int count = 0;
  StartTransactionCommand();
  Relation relation = table_open(DatabaseRelationId, AccessShareLock);
  TableScanDesc scan = table_beginscan_catalog(relation, 0, nullptr);
  HeapTuple tuple;
  while (count < capacity && (tuple = heap_getnext(scan, ForwardScanDirection)) != nullptr) {
    const Form_pg_database database = reinterpret_cast<Form_pg_database>(GETSTRUCT(tuple));
    if (database->datallowconn && !database->datistemplate) databases[count++] = database->oid;
  }
  table_endscan(scan);
  table_close(relation, AccessShareLock);
  CommitTransactionCommand();
  return count;
}

struct Running {
  Oid database;
  BackgroundWorkerHandle* handle;
};

bool StillRunning(BackgroundWorkerHandle* handle) {
  pid_t pid;
  const BgwHandleStatus status = GetBackgroundWorkerPid(handle, &pid);
  return status == BGWH_STARTED || status == BGWH_NOT_YET_STARTED;
}

void StartSealers(Running* running, int* running_count) {
  // Forget the workers that have ended.
  int kept = 0;
  for (int i = 0; i < *running_count; ++i) {
    if (StillRunning(running[i].handle))
      running[kept++] = running[i];
    else
      pfree(running[i].handle);
  }
  *running_count = kept;

  Oid databases[1024];
  const int count = ListDatabases(databases, lengthof(databases));
  const TimestampTz now = GetCurrentTimestamp();
  // Round robin by OID, from the one after the database started last, so no
  // database waits for ever however the catalog's order changes between passes.
  std::sort(databases, databases + count);
  static Oid started_last = InvalidOid;
  const int first = static_cast<int>(std::upper_bound(databases, databases + count, started_last) - databases);
  for (int n = 0; n < count && *running_count < kMaxSealersAtOnce; ++n) {
    const int i = (first + n) % count;
    bool busy = false;
    for (int j = 0; j < *running_count; ++j) busy = busy || running[j].database == databases[i];
    if (busy || SealingDeferred(databases[i], now)) continue;
    BackgroundWorker worker;
    FillWorker(&worker, "pg_act sealer", "act_seal_database_main");
    worker.bgw_restart_time = BGW_NEVER_RESTART;
    worker.bgw_main_arg = ObjectIdGetDatum(databases[i]);
    worker.bgw_notify_pid = MyProcPid;
    BackgroundWorkerHandle* handle = nullptr;
    if (!RegisterDynamicBackgroundWorker(&worker, &handle)) break;  // no free worker slot: next time
    running[(*running_count)++] = {databases[i], handle};
    started_last = databases[i];
    DeferSealing(databases[i], now + static_cast<TimestampTz>(g_seal_interval_ms) * 1000);
  }
}

// Takes ACCESS SHARE on every relation of the extension's schema (tables,
// indexes, sequences, views), in OID order, without waiting; false when one
// is locked by DDL (DROP or ALTER EXTENSION, VACUUM
// FULL...). Holding them all before act.seal() starts means DDL queues behind
// the sealer instead of locking half the tables it needs: a sealer that took
// its locks one by one could deadlock with a DROP EXTENSION, and the deadlock
// detector might pick the DROP. A sealer that finds DDL under way skips this
// round; the launcher starts another at the next interval.
bool LockExtensionTables() {
  const int listed = SPI_execute(
      "SELECT c.oid FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_class c ON c.relnamespace = e.extnamespace "
      "WHERE e.extname = 'pg_act' ORDER BY c.oid",
      true, 0);
  if (listed != SPI_OK_SELECT) return false;
  for (uint64 row = 0; row < SPI_processed; ++row) {
    bool is_null = false;
    const Datum oid = SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, 1, &is_null);
    if (is_null || !ConditionalLockRelationOid(DatumGetObjectId(oid), AccessShareLock)) return false;
  }
  return true;
}

}  // namespace

void InstallSealWorker() {
  RegisterSharedArea({"pg_act seal worker", SealSharedSize, AttachSealShared});
  BackgroundWorker worker;
  FillWorker(&worker, "pg_act seal launcher", "act_seal_launcher_main");
  worker.bgw_restart_time = 10;
  RegisterBackgroundWorker(&worker);
}

}  // namespace act::pg

void act_seal_launcher_main(Datum) {
  pqsignal(SIGHUP, SignalHandlerForConfigReload);
  pqsignal(SIGTERM, die);
  BackgroundWorkerUnblockSignals();
  BackgroundWorkerInitializeConnection(nullptr, nullptr, 0);  // shared catalogs only
  act::pg::Running running[act::pg::kMaxSealersAtOnce];
  int running_count = 0;
  for (;;) {
    const int interval = act::pg::g_seal_interval_ms > 0 ? act::pg::g_seal_interval_ms : 1000;
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, interval, PG_WAIT_EXTENSION);
    ResetLatch(MyLatch);
    CHECK_FOR_INTERRUPTS();
    if (ConfigReloadPending) {
      ConfigReloadPending = false;
      ProcessConfigFile(PGC_SIGHUP);
    }
    if (act::pg::g_seal_interval_ms > 0) act::pg::StartSealers(running, &running_count);
  }
}

void act_seal_database_main(Datum argument) {
  const Oid database = DatumGetObjectId(argument);
  pqsignal(SIGTERM, die);
  BackgroundWorkerUnblockSignals();
  BackgroundWorkerInitializeConnectionByOid(database, InvalidOid, 0);
  SetCurrentStatementStartTimestamp();
  StartTransactionCommand();
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "pg_act sealer: SPI_connect failed");
  PushActiveSnapshot(GetTransactionSnapshot());
  pgstat_report_activity(STATE_RUNNING, "pg_act: sealing the log");
  // A schema of a version with the verifiable log (0.2.2 on).
  const int found = SPI_execute(
      "SELECT 1 FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_class c ON c.relnamespace = e.extnamespace "
      "WHERE e.extname = 'pg_act' AND c.relname = 'log_state'",
      true, 1);
  const bool has_log = found == SPI_OK_SELECT && SPI_processed > 0;
  const bool tables_free = has_log && act::pg::LockExtensionTables();
  PopActiveSnapshot();
  if (tables_free) {
    SetCurrentStatementStartTimestamp();
    PushActiveSnapshot(GetTransactionSnapshot());
    if (SPI_execute("SELECT size FROM act.seal()", false, 0) != SPI_OK_SELECT)
      elog(ERROR, "pg_act sealer: act.seal() failed");
    PopActiveSnapshot();
  }
  SPI_finish();
  CommitTransactionCommand();
  pgstat_report_activity(STATE_IDLE, nullptr);
  if (!has_log) act::pg::DeferSealing(database, GetCurrentTimestamp() + act::pg::kRecheckWithoutLogMs * 1000);
  proc_exit(0);
}
