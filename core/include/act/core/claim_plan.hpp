#pragma once
// act.claim's frontier arithmetic and its SQL (docs/reference.md, act.claim).
#include <cstdint>
#include <string>

namespace act::core {

inline constexpr const char* kClaimArgumentNames[] = {"from_lagging", "from_leading", "by", "millis", "lane"};

// How many leases each frontier may grant. The lagging frontier reserves a
// quarter (at least one, from two up) for the most-behind streams whatever
// their priority, so a high-priority backlog cannot starve the rest.
struct ClaimCounts {
  std::int32_t priority = 0;  // lagging, by priority then watermark
  std::int32_t fairness = 0;  // lagging, by watermark only
  std::int32_t leading = 0;   // most recently advanced first
  std::int64_t Total() const { return std::int64_t{priority} + fairness + leading; }
};

// Throws ValidationError for negative counts.
ClaimCounts PlanClaim(std::int64_t from_lagging, std::int64_t from_leading);

// The longest lease act.claim grants. A worker that dies holding a lease
// keeps its streams from every other worker until the lease ends; an hour
// bounds that stall. Longer work is split into batches acked one by one
// (docs/reference.md, act.claim).
inline constexpr std::int32_t kMaxLeaseMillis = 3'600'000;

// Throws ValidationError unless 0 <= millis <= kMaxLeaseMillis.
void ValidateLeaseMillis(std::int64_t millis);

// The claim as one statement, for an older version's schema (before 0.2.1),
// whose wide marks the caller has folded into the rows' stored marks: work
// comes from those alone. (From 0.2.1 on the extension walks the claim in
// C++.) Parameters: $1 priority count, $2 fairness count, $3 leading count,
// $4 by, $5 millis, $6 lane (only used when `by_lane`), $7 horizon (or NULL).
std::string ClaimSql(bool by_lane);

}  // namespace act::core
