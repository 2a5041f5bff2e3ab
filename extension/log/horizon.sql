-- The statements horizon.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: max_visible
SELECT coalesce(max(id), -1) FROM act.events
