-- The statements work_marks.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: raise
UPDATE act.subscription_rows s SET correlated_at = u.mark
FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(stream, mark)
WHERE s.stream OPERATOR(pg_catalog.=) u.stream
AND (s.correlated_at IS NULL OR s.correlated_at OPERATOR(pg_catalog.<) u.mark)

-- name: wide_raise
UPDATE act.wide_marks SET mark = $2
WHERE ctid OPERATOR(pg_catalog.=) $1 AND mark OPERATOR(pg_catalog.<) $2
AND class OPERATOR(pg_catalog.=) $3 AND backend OPERATOR(pg_catalog.=) $4

-- name: wide_insert
INSERT INTO act.wide_marks AS w (class, backend, mark)
SELECT u.class, $3, u.mark FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(class, mark)
ON CONFLICT (class, backend) DO UPDATE SET mark = excluded.mark WHERE w.mark OPERATOR(pg_catalog.<) excluded.mark

-- name: row_raise
UPDATE act.wide_marks SET mark = $2
WHERE ctid OPERATOR(pg_catalog.=) $1 AND mark OPERATOR(pg_catalog.<) $2
AND stream OPERATOR(pg_catalog.=) $3 AND backend OPERATOR(pg_catalog.=) $4

-- name: row_insert
INSERT INTO act.wide_marks AS w (stream, backend, mark)
SELECT u.stream, $3, u.mark FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(stream, mark)
ON CONFLICT (stream, backend) DO UPDATE SET mark = excluded.mark WHERE w.mark OPERATOR(pg_catalog.<) excluded.mark
