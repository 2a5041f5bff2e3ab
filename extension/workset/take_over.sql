-- The statements take_over.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: rows
SELECT s.stream, s.source, s.class
FROM act.subscription_rows s WHERE s.stream IN ($1, $2) ORDER BY s.stream FOR UPDATE

-- name: inherit
UPDATE act.subscription_rows r SET at = f.at, retry = f.retry, blocked = f.blocked, error = f.error,
  deferred_at = f.deferred_at, leased_by = NULL, leased_until = NULL
FROM act.subscription_rows f WHERE r.stream = $1 AND f.stream = $2

-- name: retire
DELETE FROM act.subscription_rows r WHERE r.stream = $1

-- name: rename
UPDATE act.subscription_rows r SET stream = $2 WHERE r.stream = $1

-- name: result
SELECT s.stream, s.source, s.at, $2 AS former, $3 AS former_source FROM act.subscriptions s WHERE s.stream = $1
