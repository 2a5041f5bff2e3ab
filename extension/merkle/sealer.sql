-- The statements sealer.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: events_to_seal
SELECT id, hash FROM act.events WHERE id > $1 AND id <= $2 ORDER BY id

-- name: first_unsealed
SELECT id, octet_length(hash) FROM act.events WHERE id > $1 ORDER BY id LIMIT 1
