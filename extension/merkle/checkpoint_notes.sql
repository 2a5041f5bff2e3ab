-- The statements checkpoint_notes.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: checkpoints
SELECT size, root, note FROM act.checkpoints WHERE (size > $1 AND size <= $2) OR size > $3 ORDER BY size
