#pragma once
// act.claim's claim walked in C++ (from 0.2.1's schema on): each frontier
// reads its candidates in its own order from the work-set index and, for
// wide rows, from each marked class's rows below its mark (docs/work-marks.md),
// merging them, and locks them one by one, skipping rows other claimers
// hold; one UPDATE then writes every lease. A statement doing the same
// (core ClaimSql, kept for an older schema) spent half of a claimed stream's
// cost in planning, executor start-up, sorts and joins (PERFORMANCE.md,
// "The claim walked in C++").
#include <optional>

#include "claim.hpp"

namespace act::pg {

// Needs SPI. `horizon`: the cap in concurrent mode (a stream whose next
// events are not all visible yet is not claimed), none in fenced mode.
// Leaves the claimed rows in SPI_tuptable as RunClaim does.
void WalkClaim(const ClaimRequest& request, std::optional<int64> horizon);

}  // namespace act::pg
