#pragma once
// The horizon: the highest id H such that every event with id <= H that will
// ever be visible is visible now (docs/concurrency.md).
//
// Fenced mode: commits hold one fence until they are visible, so ids become
// visible in id order and the highest visible id is the horizon.
// Concurrent mode (pg_act in shared_preload_libraries): commits run in
// parallel; each publishes in shared memory a lower bound of the ids it may
// still make visible, before it takes any, and withdraws it once its commit
// is visible or it aborted. The horizon is then the lowest published bound
// minus one, or the id sequence's high-water mark when nothing is in flight.
#include <vector>

#include "error_bridge.hpp"

namespace act::pg {

bool ConcurrentMode();

// From _PG_init while shared_preload_libraries are loading.
void InstallConcurrentMode();

// Concurrent mode: publishes this transaction's bound (once per transaction)
// before it takes ids. No-op in fenced mode.
void PublishInflight();

// After a commit took ids, the highest of them: what the horizon beacon
// learns once the transaction commits (horizon_beacon.hpp).
void NoteIdsTaken(int64 highest);

// Needs SPI. -1 when no id is safe to read yet. On a standby in concurrent
// mode: the last horizon the primary's beacon sent that has been replayed.
int64 Horizon();

// Returns the horizon as soon as it passes `after`, or at the timeout.
int64 WaitForHorizon(int64 after, int timeout_ms);

// Concurrent mode: the lowest bound `database`'s transactions in flight have
// published; 0 when none is in flight. Raises nothing (the beacon worker).
uint64 LowestInflightBound(Oid database);
// Wakes every act.wait (a standby's replay of a beacon record).
void WakeHorizonWaiters();

struct InflightHolder {
  int pid;
  TimestampTz since;
  int64 lowest_id;
};
// Concurrent mode: the transactions of this database holding the horizon back.
std::vector<InflightHolder> InflightHolders();

}  // namespace act::pg
