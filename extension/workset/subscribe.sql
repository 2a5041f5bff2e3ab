-- The statements subscribe.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: existing
SELECT s.stream, s.source, s.names FROM act.subscription_rows s WHERE s.stream = ANY ($1)

-- name: insert
WITH input AS (
  SELECT u.stream, u.source, u.priority, u.lane, u.mark,
         CASE WHEN u.names IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(u.names)) END AS names,
         (u.source IS NULL OR act._is_pattern(u.source)) AS wide
  FROM unnest($1, $2, $3, $4, $5, $6) AS u(stream, source, names, priority, lane, mark)
), missing AS (
  SELECT DISTINCT i.source, i.names FROM input i WHERE i.wide
    AND NOT EXISTS (SELECT FROM act.subscription_rows s WHERE s.stream = i.stream)
    AND NOT EXISTS (SELECT FROM act.wide_classes c
                    WHERE c.source IS NOT DISTINCT FROM i.source AND c.names IS NOT DISTINCT FROM i.names)
), created AS (
  INSERT INTO act.wide_classes (id, source, names)
  SELECT (SELECT coalesce(max(c.id), 0) FROM act.wide_classes c) + row_number() OVER (), m.source, m.names
  FROM missing m RETURNING id, source, names
)
INSERT INTO act.subscription_rows (stream, source, names, priority, lane, correlated_at, class)
SELECT i.stream, i.source, i.names, i.priority, i.lane, i.mark,
       CASE WHEN i.wide THEN coalesce(
         (SELECT n.id FROM created n WHERE n.source IS NOT DISTINCT FROM i.source AND n.names IS NOT DISTINCT FROM i.names),
         (SELECT min(c.id) FROM act.wide_classes c
           WHERE c.source IS NOT DISTINCT FROM i.source AND c.names IS NOT DISTINCT FROM i.names)) END
FROM input i
ON CONFLICT (stream) DO NOTHING RETURNING stream, source, names

-- name: insert_without_class
INSERT INTO act.subscription_rows (stream, source, names, priority, lane, correlated_at)
SELECT u.stream, u.source,
       CASE WHEN u.names IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(u.names)) END,
       u.priority, u.lane, u.mark
FROM unnest($1, $2, $3, $4, $5, $6) AS u(stream, source, names, priority, lane, mark)
ON CONFLICT (stream) DO NOTHING RETURNING stream, source, names

-- name: merge
UPDATE act.subscription_rows s SET priority = greatest(s.priority, u.priority), lane = u.lane,
  correlated_at = CASE WHEN u.mark IS NULL THEN s.correlated_at
                       ELSE greatest(coalesce(s.correlated_at, u.mark), u.mark) END
FROM unnest($1, $2, $3, $4) AS u(stream, priority, lane, mark)
WHERE s.stream = u.stream AND (u.priority > s.priority OR s.lane <> u.lane
  OR (u.mark IS NOT NULL AND (s.correlated_at IS NULL OR s.correlated_at < u.mark)))

-- name: advance
UPDATE act.correlators c SET at = greatest(c.at, $2) WHERE c.key = $1

-- name: lease
INSERT INTO act.correlators AS c (key, at, leased_by, leased_until)
VALUES ($1, greatest(coalesce($2, -1), coalesce((SELECT x.at FROM act.correlators x WHERE x.key = ''), -1)),
        $3, CASE WHEN $4 > 0 THEN now() + $4 * interval '1 millisecond' END)
ON CONFLICT (key) DO UPDATE SET at = greatest(c.at, coalesce($2, -1)),
  leased_by = CASE WHEN $4 > 0 THEN $3 END,
  leased_until = CASE WHEN $4 > 0 THEN now() + $4 * interval '1 millisecond' END
WHERE c.leased_until IS NULL OR c.leased_until < now() OR c.leased_by = $3

-- name: summary
SELECT (SELECT coalesce(max(s.at), -1) FROM act.subscription_rows s),
       coalesce((SELECT c.at FROM act.correlators c WHERE c.key = $1), -1)
