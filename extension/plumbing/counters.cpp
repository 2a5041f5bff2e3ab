// The counters' shared memory, the transaction hooks that publish them, and
// their SQL entry points: act._counters (behind act.metrics) and
// act.reset_counters.
#include "counters.hpp"

#include <array>
#include <vector>

#include "act/core/errors.hpp"
#include "shared_memory.hpp"
#include "spi_rows.hpp"

extern "C" {
#include "access/xact.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/spin.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
}

namespace act::pg {
namespace {

// Databases with pg_act in one cluster are few; a slot of a dropped database
// is taken over, and a database past the last live one counts nowhere
// (docs/operations.md says so).
constexpr int kMaxDatabases = 64;

struct DatabaseCounters {
  Oid database;  // InvalidOid: free; set once, under the area's mutex
  pg_atomic_uint64 since;  // TimestampTz of the slot's creation or last reset
  pg_atomic_uint64 values[kCounterCount];
};

struct SharedCounters {
  slock_t mutex;  // taken only to claim a slot
  DatabaseCounters slots[kMaxDatabases];
};

using Counts = std::array<uint64, kCounterCount>;

SharedCounters* g_shared = nullptr;
DatabaseCounters* g_mine = nullptr;  // this backend's database's slot, once found
Counts g_pending{};  // this transaction's counts so far
struct Saved {
  int level;  // the subtransaction's nesting level
  Counts pending;
};
// g_pending at the start of each open subtransaction that began with counts
// pending; one that began with none rolls back to none.
std::vector<Saved> g_saved;
bool g_any_pending = false;

Size SharedSize() { return sizeof(SharedCounters); }

void AttachShared(void* memory, bool found) {
  g_shared = static_cast<SharedCounters*>(memory);
  if (found) return;
  SpinLockInit(&g_shared->mutex);
  for (DatabaseCounters& slot : g_shared->slots) {
    slot.database = InvalidOid;
    pg_atomic_init_u64(&slot.since, 0);
    for (pg_atomic_uint64& value : slot.values) pg_atomic_init_u64(&value, 0);
  }
}

bool DatabaseExists(Oid database) {
  return Guard([database] { return SearchSysCacheExists1(DATABASEOID, ObjectIdGetDatum(database)); });
}

// Takes a free slot, or else one of a database dropped since (checked
// outside the spinlock: catalog lookups may not run under one).
DatabaseCounters* ClaimSlot() {
  Oid recyclable = InvalidOid;
  bool any_free = false;
  for (DatabaseCounters& slot : g_shared->slots) {
    if (slot.database == InvalidOid) any_free = true;
    else if (!any_free && recyclable == InvalidOid && !DatabaseExists(slot.database)) recyclable = slot.database;
  }
  DatabaseCounters* claimed = nullptr;
  const TimestampTz now = GetCurrentTimestamp();
  SpinLockAcquire(&g_shared->mutex);
  for (DatabaseCounters& slot : g_shared->slots) {
    if (slot.database == MyDatabaseId) {
      claimed = &slot;
      break;
    }
    if (claimed == nullptr && (slot.database == InvalidOid || (!any_free && slot.database == recyclable))) claimed = &slot;
  }
  if (claimed != nullptr && claimed->database != MyDatabaseId) {
    for (pg_atomic_uint64& value : claimed->values) pg_atomic_write_u64(&value, 0);
    pg_atomic_write_u64(&claimed->since, static_cast<uint64>(now));
    pg_write_barrier();  // a reader that sees the database sees its zeroed counts
    claimed->database = MyDatabaseId;
  }
  SpinLockRelease(&g_shared->mutex);
  return claimed;
}

// This database's slot; with `claim`, taken when it has none yet (in a
// function's context, never from a transaction callback).
DatabaseCounters* FindSlot(bool claim) {
  if (g_mine != nullptr || g_shared == nullptr || !OidIsValid(MyDatabaseId)) return g_mine;
  for (DatabaseCounters& slot : g_shared->slots)
    if (slot.database == MyDatabaseId) return g_mine = &slot;
  if (claim) g_mine = ClaimSlot();
  return g_mine;
}

void Publish(const Counts& counts) {
  if (g_mine == nullptr) return;  // every slot taken by a live database: counted nowhere
  // pg_atomic_fetch_add_u64 takes its addend as int64: one transaction's
  // counts stay far below 2^63.
  for (std::size_t i = 0; i < kCounterCount; ++i)
    if (counts[i] != 0) pg_atomic_fetch_add_u64(&g_mine->values[i], static_cast<int64>(counts[i]));
}

void Discard() {
  g_pending.fill(0);
  g_saved.clear();
  g_any_pending = false;
}

void OnTransactionEvent(XactEvent event, void*) {
  if (event == XACT_EVENT_COMMIT && g_any_pending) Publish(g_pending);
  if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT || event == XACT_EVENT_PREPARE ||
      event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT)
    Discard();
}

void OnSubtransactionEvent(SubXactEvent event, SubTransactionId, SubTransactionId, void*) {
  // Callbacks run in Postgres frames: nothing may throw out of here.
  const int level = GetCurrentTransactionNestLevel();
  const bool saved_here = !g_saved.empty() && g_saved.back().level == level;
  if (event == SUBXACT_EVENT_START_SUB && g_any_pending) {
    try {
      g_saved.push_back(Saved{level, g_pending});
    } catch (...) {
      Discard();  // out of memory: undercount rather than fail
    }
  } else if (event == SUBXACT_EVENT_ABORT_SUB) {
    // What the aborted subtransaction did never happened.
    if (saved_here) {
      g_pending = g_saved.back().pending;
      g_saved.pop_back();
    } else {
      g_pending.fill(0);
      g_any_pending = false;
    }
  } else if (event == SUBXACT_EVENT_COMMIT_SUB && saved_here) {
    g_saved.pop_back();
  }
}

const char* CounterName(std::size_t counter) {
  static constexpr std::array<const char*, kCounterCount> kNames = {"commits", "events", "conflicts", "claims",
                                                                    "retries", "acks",   "blocks"};
  return kNames[counter];
}

}  // namespace

void InstallCounters() {
  RegisterSharedArea({"pg_act counters", SharedSize, AttachShared});
  RegisterXactCallback(OnTransactionEvent, nullptr);
  RegisterSubXactCallback(OnSubtransactionEvent, nullptr);
}

void Count(Counter counter, uint64 amount) {
  if (g_shared == nullptr || amount == 0) return;
  FindSlot(true);
  g_pending[static_cast<std::size_t>(counter)] += amount;
  g_any_pending = true;
}

void CountNow(Counter counter, uint64 amount) {
  if (g_shared == nullptr || amount == 0) return;
  FindSlot(true);
  Counts counts{};
  counts[static_cast<std::size_t>(counter)] = amount;
  Publish(counts);
}

}  // namespace act::pg

using namespace act;

// One row per counter of this database; none in fenced mode, where there are
// no counters.
ACT_SQL_FUNCTION(act_counters) {
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::DatabaseCounters* slot = pg::FindSlot(false);
  if (pg::g_shared == nullptr) return Datum(0);
  for (std::size_t i = 0; i < pg::kCounterCount; ++i) {
    const char* name = pg::CounterName(i);
    const uint64 value = slot == nullptr ? 0 : pg_atomic_read_u64(&slot->values[i]);
    const TimestampTz since =
        slot == nullptr ? GetCurrentTimestamp() : static_cast<TimestampTz>(pg_atomic_read_u64(&slot->since));
    pg::Guard([result, name, value, since] {
      Datum values[3] = {CStringGetTextDatum(name), Int64GetDatum(static_cast<int64>(value)),
                         TimestampTzGetDatum(since)};
      bool nulls[3] = {false, false, false};
      tuplestore_putvalues(result->setResult, result->setDesc, values, nulls);
    });
  }
  return Datum(0);
}

ACT_SQL_FUNCTION(act_reset_counters) {
  if (pg::g_shared == nullptr)
    throw core::SqlError(core::sqlstate::kObjectNotInPrerequisiteState,
                         "pg_act keeps counters only when preloaded: add pg_act to shared_preload_libraries");
  pg::DatabaseCounters* slot = pg::FindSlot(true);
  const TimestampTz now = GetCurrentTimestamp();
  if (slot != nullptr) {
    for (pg_atomic_uint64& value : slot->values) pg_atomic_write_u64(&value, 0);
    pg_atomic_write_u64(&slot->since, static_cast<uint64>(now));
  }
  PG_RETURN_TIMESTAMPTZ(now);
}
