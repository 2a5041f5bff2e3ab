#include "claim_wait.hpp"

#include <string>

#include "act/core/errors.hpp"
#include "horizon.hpp"
#include "spi_rows.hpp"

namespace act::pg {

int32 ReadClaimWait(FunctionCallInfo fcinfo, int arg, bool with_acks) {
  if (PG_NARGS() <= arg) return 0;  // still declared without it (ALTER EXTENSION UPDATE not run yet)
  if (PG_ARGISNULL(arg))
    throw core::ValidationError("wait_millis must not be null", core::sqlstate::kNullValueNotAllowed);
  const int32 wait_millis = PG_GETARG_INT32(arg);
  if (wait_millis < 0 || wait_millis > kMaxClaimWaitMillis)
    throw core::ValidationError("wait_millis must be between 0 and " + std::to_string(kMaxClaimWaitMillis) +
                                ", not " + std::to_string(wait_millis));
  // Under REPEATABLE READ every claim reads the transaction's snapshot: no
  // commit it could wait for would ever be claimed.
  if (wait_millis > 0 && Guard([] { return IsolationUsesXactSnapshot(); }))
    throw core::ValidationError("wait_millis must be 0 under REPEATABLE READ or SERIALIZABLE, not " +
                                std::to_string(wait_millis) + ": the transaction's snapshot never sees a later commit");
  // An acked row stays locked by this transaction until the call returns,
  // and a commit that marks the row waits for that lock: the commit the
  // claim waits for would wait for the claim.
  if (wait_millis > 0 && with_acks)
    throw core::ValidationError("wait_millis must be 0 when acks are given, not " + std::to_string(wait_millis) +
                                ": the acked rows stay locked while the call waits, and a commit that marks them "
                                "would wait with it");
  return wait_millis;
}

void RunClaimWaiting(const ClaimRequest& request, int32 wait_millis) {
  if (wait_millis == 0) {
    RunClaim(request);
    return;
  }
  const TimestampTz deadline = GetCurrentTimestamp() + static_cast<TimestampTz>(wait_millis) * 1000;
  for (;;) {
    // Read before the claim: a commit landing during the claim moves the
    // horizon past it, so the wait below returns at once and claims again.
    const int64 seen = Horizon();
    RunClaim(request);
    if (RowCount() > 0) return;
    const TimestampTz now = GetCurrentTimestamp();
    if (now >= deadline) return;
    WaitForHorizon(seen, static_cast<int>((deadline - now + 999) / 1000));
    Guard([] { CHECK_FOR_INTERRUPTS(); });
  }
}

}  // namespace act::pg
