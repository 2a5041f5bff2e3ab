#pragma once
// Cumulative activity counters of concurrent mode (pg_act preloaded), kept
// per database in shared memory like pg_stat_statements' figures: nothing
// survives a restart, act.reset_counters() zeroes them. In fenced mode there
// is no shared memory to keep them in, and counting does nothing.
//
// Work done by a transaction counts when it commits: a commit rolled back is
// not a commit. A conflict counts when it is raised, since its transaction
// never commits.
#include <cstdint>

#include "error_bridge.hpp"

namespace act::pg {

enum class Counter : int {
  kCommits,    // act.commit calls that wrote events
  kEvents,     // events they wrote
  kConflicts,  // act.commit calls refused with 40001
  kClaims,     // streams handed out by act.claim and act.claim_events
  kRetries,    // of those, streams claimed again after a lease ran out unacknowledged (retry > 0)
  kAcks,       // leases acknowledged
  kBlocks,     // streams blocked
};
inline constexpr std::size_t kCounterCount = 7;

// From _PG_init while shared_preload_libraries are loading.
void InstallCounters();

// Adds to this transaction's counts, published when it commits.
void Count(Counter counter, uint64 amount);
// Publishes at once, whatever becomes of the transaction.
void CountNow(Counter counter, uint64 amount);

}  // namespace act::pg
