-- The statements leases.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: ack
WITH acked AS (
  UPDATE act.subscription_rows s SET at = i.at, leased_by = NULL, leased_until = NULL, deferred_at = i.due,
    retry = CASE WHEN i.due IS NULL THEN -1 ELSE coalesce(i.retry, s.retry) END
  FROM unnest($1, $2, $3, $4, $5, $6) AS i(stream, by, at, lagging, retry, due)
  WHERE s.stream = i.stream AND s.leased_by = i.by
  RETURNING s.stream, s.source, s.at, i.by, s.retry, i.lagging, s.lane, i.due
) SELECT stream, source, at, by, retry, lagging, lane FROM acked WHERE due IS NULL ORDER BY stream

-- name: block
WITH blocked AS (
  UPDATE act.subscription_rows s SET blocked = true, error = i.error, deferred_at = NULL
  FROM unnest($1, $2, $3, $4) AS i(stream, by, error, lagging)
  WHERE s.stream = i.stream AND s.leased_by = i.by AND NOT s.blocked
  RETURNING s.stream, s.source, s.at, i.by, s.retry, s.error, i.lagging, s.lane
) SELECT * FROM blocked ORDER BY stream

-- name: reach
SELECT s.source, (SELECT max(e.id) FROM act.events e WHERE e.stream = s.source)
FROM act.subscription_rows s WHERE s.stream = $1
