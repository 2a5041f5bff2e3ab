#pragma once
// The claim engine shared by act.claim and act.claim_events.
#include <optional>
#include <string_view>

#include "act/core/claim_plan.hpp"
#include "error_bridge.hpp"

namespace act::pg {

struct ClaimRequest {
  core::ClaimCounts counts;
  Datum by;                   // text, not empty
  int32 millis = 0;
  std::optional<Datum> lane;  // text
};

// Validates act.claim's first five arguments (NULLs, negative counts, an
// empty `by`, millis outside 0 to one hour): the same rules for both functions.
ClaimRequest ReadClaimArguments(FunctionCallInfo fcinfo);

// Needs SPI. Folds wide marks, then leases the streams; leaves the claimed
// rows (stream, source, at, by, retry, lagging, lane) in SPI_tuptable.
void RunClaim(const ClaimRequest& request);

}  // namespace act::pg
