#pragma once
// act.claim_events' wait_millis: a claim that, finding nothing, waits in the
// server for a commit and claims again, so a parked worker wakes and claims
// in one round trip (docs/reference.md, act.claim_events).
#include "claim.hpp"

namespace act::pg {

// The longest wait_millis accepted: the caller's transaction stays open while
// it waits (its acks' row locks held, its snapshot holding back vacuum).
constexpr int32 kMaxClaimWaitMillis = 60 * 1000;

// Validates wait_millis (NULL, negative, above the cap, or above 0 in a
// transaction whose snapshot cannot see later commits, or beside acks)
// before anything is written.
int32 ReadClaimWait(FunctionCallInfo fcinfo, int arg, bool with_acks);

// Needs SPI. RunClaim until it leaves rows in SPI_tuptable or wait_millis have
// passed; between attempts sleeps until the horizon moves (a commit landed).
void RunClaimWaiting(const ClaimRequest& request, int32 wait_millis);

}  // namespace act::pg
