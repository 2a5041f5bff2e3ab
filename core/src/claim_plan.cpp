#include "act/core/claim_plan.hpp"

#include <algorithm>

#include "act/core/errors.hpp"

namespace act::core {

ClaimCounts PlanClaim(std::int64_t from_lagging, std::int64_t from_leading) {
  if (from_lagging < 0) throw ValidationError("from_lagging must be 0 or more, not " + std::to_string(from_lagging));
  if (from_leading < 0) throw ValidationError("from_leading must be 0 or more, not " + std::to_string(from_leading));
  ClaimCounts counts;
  const auto lagging = static_cast<std::int32_t>(from_lagging);
  counts.fairness = lagging >= 2 ? std::max(1, lagging / 4) : 0;
  counts.priority = lagging - counts.fairness;
  counts.leading = static_cast<std::int32_t>(from_leading);
  return counts;
}

std::string ClaimSql(bool by_lane) {
  const std::string lane = by_lane ? " AND s.lane = $6" : "";
  const std::string free =
      "(s.leased_by IS NULL OR s.leased_until <= now()) AND (s.deferred_at IS NULL OR s.deferred_at <= now())";
  // The work predicate matches the partial indexes' predicate word for word.
  // $7: the horizon in concurrent mode (NULL in fenced mode): a stream whose
  // next events are not all visible yet is not worth a lease.
  const std::string eligible =
      "NOT s.blocked AND s.at < s.correlated_at" + lane + " AND " + free + " AND ($7::bigint IS NULL OR s.at < $7)";
  return "WITH prio AS ("
         "  SELECT s.stream FROM act.subscription_rows s WHERE " + eligible +
         "  ORDER BY s.priority DESC, s.at, s.stream LIMIT $1"
         "), fair AS ("
         "  SELECT s.stream FROM act.subscription_rows s WHERE " + eligible +
         "  AND s.stream <> ALL (ARRAY(SELECT p.stream FROM prio p))"
         "  ORDER BY s.at, s.stream LIMIT $2"
         "), lead AS ("
         "  SELECT s.stream FROM act.subscription_rows s WHERE " + eligible +
         "  ORDER BY s.at DESC, s.stream DESC LIMIT $3"
         "), candidates AS ("
         "  SELECT c.stream, bool_or(c.lagging) AS lagging FROM ("
         "    SELECT p.stream, true AS lagging FROM prio p UNION ALL"
         "    SELECT f.stream, true FROM fair f UNION ALL"
         "    SELECT l.stream, false FROM lead l) c"
         "  GROUP BY c.stream"
         "), locked AS ("
         // Re-check under the row lock: a competitor may have leased it since.
         // `= ANY (ARRAY(...))` keeps this an index lookup whatever the estimates.
         "  SELECT s.stream FROM act.subscription_rows s"
         "  WHERE s.stream = ANY (ARRAY(SELECT c.stream FROM candidates c)) AND NOT s.blocked AND " + free +
         "  FOR UPDATE OF s SKIP LOCKED"
         "), granted AS ("
         "  UPDATE act.subscription_rows s SET leased_by = $4, retry = s.retry + 1,"
         "    leased_until = now() + $5 * interval '1 millisecond'"
         "  FROM candidates c"
         "  WHERE s.stream = ANY (ARRAY(SELECT l.stream FROM locked l)) AND c.stream = s.stream"
         "  RETURNING s.stream, s.source, s.at, s.leased_by, s.retry, c.lagging, s.lane"
         ") SELECT * FROM granted ORDER BY stream";
}

}  // namespace act::core
