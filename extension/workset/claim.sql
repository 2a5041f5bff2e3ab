-- The statements claim.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: fold
WITH marks AS (SELECT w.stream, max(w.mark) AS mark FROM act.wide_marks w GROUP BY w.stream),
stale AS (SELECT r.stream, m.mark FROM act.subscription_rows r JOIN marks m ON m.stream = r.stream
  WHERE r.correlated_at IS NULL OR r.correlated_at < m.mark FOR UPDATE OF r SKIP LOCKED)
UPDATE act.subscription_rows r SET correlated_at = stale.mark FROM stale WHERE r.stream = stale.stream

-- name: grant
-- The leases of the rows claim_walk.cpp locked ($3: the versions it holds),
-- in one statement; $4: the streams only the leading frontier took.
WITH granted AS (
  UPDATE act.subscription_rows s SET leased_by = $1, retry = s.retry + 1,
    leased_until = now() + $2 * interval '1 millisecond'
  WHERE s.ctid = ANY ($3)
  RETURNING s.stream, s.source, s.at, s.leased_by, s.retry, s.stream <> ALL ($4) AS lagging, s.lane
) SELECT * FROM granted ORDER BY stream
