-- The statements claim.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: fold
WITH marks AS (SELECT w.stream, max(w.mark) AS mark FROM act.wide_marks w GROUP BY w.stream),
stale AS (SELECT r.stream, m.mark FROM act.subscription_rows r JOIN marks m ON m.stream = r.stream
  WHERE r.correlated_at IS NULL OR r.correlated_at < m.mark FOR UPDATE OF r SKIP LOCKED)
UPDATE act.subscription_rows r SET correlated_at = stale.mark FROM stale WHERE r.stream = stale.stream
