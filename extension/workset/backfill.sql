-- The statements backfill.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: backfill_all
SELECT e.id FROM act.events e WHERE e.name <> ALL ('{__snapshot__,__tombstone__}')
AND ($1 IS NULL OR e.name = ANY ($1)) ORDER BY e.id DESC LIMIT 1

-- name: backfill_literal
SELECT e.id FROM act.events e WHERE e.stream = $2 AND e.name <> ALL ('{__snapshot__,__tombstone__}')
AND ($1 IS NULL OR e.name = ANY ($1)) ORDER BY e.version DESC LIMIT 1

-- name: backfill_pattern
SELECT e.id FROM act.events e WHERE e.stream COLLATE "C" ~ $2 AND e.name <> ALL ('{__snapshot__,__tombstone__}')
AND ($1 IS NULL OR e.name = ANY ($1)) ORDER BY e.id DESC LIMIT 1

-- name: backfill_mark
UPDATE act.subscription_rows s SET correlated_at = $2
WHERE s.stream = $1 AND (s.correlated_at IS NULL OR s.correlated_at < $2)

-- name: class_floor
UPDATE act.subscription_rows r SET class_floor = k.mark
FROM (SELECT m.class, max(m.mark) AS mark FROM act.wide_marks m GROUP BY m.class) k
WHERE r.stream = ANY ($1) AND r.class = k.class AND k.mark > coalesce(r.correlated_at, -1)
