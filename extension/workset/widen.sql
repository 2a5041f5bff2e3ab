-- The statements widen.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: row
SELECT s.source, s.names, s.class FROM act.subscription_rows s WHERE s.stream = $1

-- name: locked_row
SELECT s.source, s.names, s.class FROM act.subscription_rows s WHERE s.stream = $1 FOR UPDATE

-- name: class
WITH found AS (
  SELECT min(c.id) AS id FROM act.wide_classes c
  WHERE c.source IS NOT DISTINCT FROM $1 AND c.names = $2
), created AS (
  INSERT INTO act.wide_classes (id, source, names)
  SELECT (SELECT coalesce(max(c.id), 0) + 1 FROM act.wide_classes c), $1, $2
  WHERE (SELECT f.id FROM found f) IS NULL RETURNING id
) SELECT coalesce((SELECT f.id FROM found f), (SELECT n.id FROM created n))

-- name: move
UPDATE act.subscription_rows r SET names = $2, class = $3, class_floor = NULL, correlated_at = v.correlated_at,
  leased_by = NULL, leased_until = NULL
FROM act.subscriptions v WHERE r.stream = $1 AND v.stream = $1

-- name: drop_class
WITH gone AS (
  DELETE FROM act.wide_classes c WHERE c.id = $1
  AND NOT EXISTS (SELECT FROM act.subscription_rows r WHERE r.class = $1) RETURNING c.id
) DELETE FROM act.wide_marks m USING gone WHERE m.class = gone.id

-- name: result
SELECT s.stream, s.names, $2 AS added, s.at, s.correlated_at FROM act.subscriptions s WHERE s.stream = $1
