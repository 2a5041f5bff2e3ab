-- The statements commit_keys.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: rows
SELECT e.id, e.stream, e.version, e.name, e.data, e.meta, CASE WHEN $2 THEN NULL ELSE e.pii END AS pii,
e.created, e.hash FROM act.events e WHERE e.id OPERATOR(pg_catalog.=) ANY ($1) ORDER BY e.version
