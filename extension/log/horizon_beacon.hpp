#pragma once
// The horizon beacon (concurrent mode): how a hot standby learns a horizon.
// A standby cannot see the primary's in-flight commits, which live in the
// primary's shared memory. So the primary writes its horizon of each
// database into the WAL, a few milliseconds apart, off the commit path:
//
//   committing backends  after their commit is visible, raise the database's
//                        "settled" mark: the sequence's high-water mark read
//                        just before they committed (SettleCommitted)
//   beacon worker        every act.horizon_beacon_ms, for each database whose
//                        horizon moved: min(settled, lowest in-flight bound
//                        - 1) as a WAL record of pg_act's own resource manager
//   standby replay       stores the record's horizon and wakes act.wait
//
// A record comes after the commit records of every id it covers, so a
// standby that has replayed it sees all of them: act.horizon() there is the
// last horizon replayed (ReplayedHorizon). Each database's horizon is sent
// again every second even when it stands still, so a restarted standby
// learns it. The standby needs pg_act preloaded too (its replay runs the
// record's redo).
#include <optional>

#include "error_bridge.hpp"

namespace act::pg {

// From InstallConcurrentMode, while shared_preload_libraries load.
void InstallHorizonBeacon();

// Post-commit (no errors may be raised): every id up to `high_water` of
// this database is settled, apart from what transactions still in flight hold.
void SettleCommitted(int64 high_water);

// On a standby: the last horizon of this database replayed; none before the
// first record.
std::optional<int64> ReplayedHorizon();

}  // namespace act::pg
