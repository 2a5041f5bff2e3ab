#pragma once
// act.claim's claim from stored work marks, walked in C++: each frontier reads
// its work-set index in its own order and locks candidates one by one,
// skipping rows other claimers hold; one UPDATE then writes every lease. It
// replaces the claim statement (core ClaimSql) where no wide class has a
// mark, which is every store of literal sources: the statement's planning,
// executor start-up, sorts and joins were half of a claimed stream's cost
// (PERFORMANCE.md, "The claim walked in C++").
#include <optional>

#include "claim.hpp"

namespace act::pg {

// Needs SPI. `horizon`: the cap in concurrent mode (a stream whose next
// events are not all visible yet is not claimed), none in fenced mode.
// Leaves the claimed rows in SPI_tuptable as RunClaim does.
void WalkClaim(const ClaimRequest& request, std::optional<int64> horizon);

}  // namespace act::pg
