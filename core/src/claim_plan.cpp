#include "act/core/claim_plan.hpp"

#include <algorithm>

#include "act/core/errors.hpp"
#include "work_predicates.hpp"

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

void ValidateLeaseMillis(std::int64_t millis) {
  if (millis < 0) throw ValidationError("millis must be 0 or more, not " + std::to_string(millis));
  if (millis > kMaxLeaseMillis)
    throw ValidationError("millis must be at most " + std::to_string(kMaxLeaseMillis) + " (one hour), not " +
                          std::to_string(millis));
}

namespace {

// `order`, written for alias x, for another alias.
std::string OnAlias(std::string order, char alias) {
  for (std::size_t at = order.find("x."); at != std::string::npos; at = order.find("x.", at + 2)) order[at] = alias;
  return order;
}

}  // namespace

std::string ClaimSql(bool by_lane) {
  const std::string lane = by_lane ? " AND s.lane = $6" : "";
  const std::string free =
      "(s.leased_by IS NULL OR s.leased_until <= now()) AND (s.deferred_at IS NULL OR s.deferred_at <= now())";
  // $7: the horizon in concurrent mode (NULL in fenced mode): a stream whose
  // next events are not all visible yet is not worth a lease.
  const std::string available = free + " AND ($7::bigint IS NULL OR s.at < $7)";
  // The work-set indexes' own predicate (sql/predicates/work_set.sql).
  const std::string stored_work = std::string(kWorkSetPredicate) + lane + " AND " + available;
  // The best `limit` rows in `order` (given for alias x) among rows with a
  // stored work mark above their watermark.
  auto candidates = [&](const std::string& order, const std::string& limit) {
    return "SELECT s.stream, s.priority, s.at, s.ctid AS tid FROM act.subscription_rows s WHERE " + stored_work +
           " ORDER BY " + OnAlias(order, 's') + " LIMIT " + limit;
  };
  // Each frontier takes its best rows that no competing claim has locked:
  // its candidates are read four times over (in bigint: a count may be near
  // the int limit) and locked in order until it has its count. A
  // competitor's claim not yet committed holds its rows, and the next best
  // take their place (with exactly the best rows, workers starting together
  // would find them all taken and come back with nothing while work waits).
  // Under the row lock the row is checked again: a competitor may have
  // leased it since. `= ANY (ARRAY(...))` keeps the lock a direct fetch
  // whatever the estimates. Rows are found again, here and by the lease
  // update, at the tid their candidate was read at rather than through the
  // primary key (a text key lookup per candidate; PERFORMANCE.md). A row
  // updated since is still taken: the lock and the update follow its update
  // chain and check the conditions again on the newest version, which a tid
  // scan's recheck accepts as the key's would.
  auto take = [&](const std::string& from, const std::string& order, const std::string& count, const std::string& extra) {
    return "SELECT s.stream, c.tid FROM act.subscription_rows s JOIN " + from + " c ON c.stream = s.stream"
           "  WHERE s.ctid = ANY (ARRAY(SELECT f.tid FROM " + from + " f)) AND NOT s.blocked AND " + free + extra +
           "  ORDER BY " + OnAlias(order, 'c') + " FOR UPDATE OF s SKIP LOCKED LIMIT " + count;
  };
  const std::string prio_order = "x.priority DESC, x.at, x.stream";
  const std::string fair_order = "x.at, x.stream";
  const std::string lead_order = "x.at DESC, x.stream DESC";
  return "WITH "
         "prio_candidates AS MATERIALIZED (" +
         candidates(prio_order, "($1::bigint * 4)") +
         "), "
         // The fairness frontier passes over the rows the priority one took:
         // its candidates leave room for them. They are told apart by the tid
         // both candidate lists read them at (one version a row in one
         // snapshot): a text comparison per pair was a tenth of a claim of 100.
         "fair_candidates AS MATERIALIZED (" +
         candidates(fair_order, "(($1::bigint + $2) * 4)") +
         "), "
         "lead_candidates AS MATERIALIZED (" +
         candidates(lead_order, "($3::bigint * 4)") +
         "), "
         "prio AS (" +
         take("prio_candidates", prio_order, "$1", "") +
         "), "
         "fair AS (" +
         take("fair_candidates", fair_order, "$2", " AND c.tid <> ALL (ARRAY(SELECT p.tid FROM prio p))") +
         "), "
         "lead AS (" +
         take("lead_candidates", lead_order, "$3", "") +
         "), "
         "candidates AS ("
         "  SELECT c.stream, min(c.tid) AS tid, bool_or(c.lagging) AS lagging FROM ("
         "    SELECT p.stream, p.tid, true AS lagging FROM prio p UNION ALL"
         "    SELECT f.stream, f.tid, true FROM fair f UNION ALL"
         "    SELECT l.stream, l.tid, false FROM lead l) c"
         "  GROUP BY c.stream"
         "), granted AS ("
         "  UPDATE act.subscription_rows s SET leased_by = $4, retry = s.retry + 1,"
         "    leased_until = now() + $5 * interval '1 millisecond'"
         "  FROM candidates c"
         "  WHERE s.ctid = ANY (ARRAY(SELECT c.tid FROM candidates c)) AND c.stream = s.stream"
         "  RETURNING s.stream, s.source, s.at, s.leased_by, s.retry, c.lagging, s.lane"
         ") SELECT * FROM granted ORDER BY stream";
}

}  // namespace act::core
