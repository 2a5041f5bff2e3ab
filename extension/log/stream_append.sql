-- The statements stream_append.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: insert
INSERT INTO act.events (stream, version, name, data, meta, pii, created, hash)
SELECT $1, u.version, u.name, u.data, $5, u.pii, $7, u.hash
FROM ROWS FROM (pg_catalog.unnest($2), pg_catalog.unnest($3), pg_catalog.unnest($4), pg_catalog.unnest($6),
pg_catalog.unnest($8)) WITH ORDINALITY AS u(version, name, data, pii, hash, ord)
ORDER BY u.ord RETURNING *

-- name: insert_tags
INSERT INTO act.event_tags (id, ord, tag)
SELECT u.id, u.ord, u.tag FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2), pg_catalog.unnest($3))
AS u(id, ord, tag)
