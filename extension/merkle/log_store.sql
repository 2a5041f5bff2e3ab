-- The statements log_store.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: read_state
SELECT size, root, sealed_upto_id, sealed_at FROM act.log_state

-- name: write_state
INSERT INTO act.log_state AS s (size, root, sealed_upto_id) VALUES ($1, $2, $3) ON CONFLICT (one) DO UPDATE
SET size = excluded.size, root = excluded.root, sealed_upto_id = excluded.sealed_upto_id, sealed_at = now()

-- name: read_tile
SELECT hashes FROM act.log_tiles WHERE level = $1 AND idx = $2

-- name: read_tiles
SELECT t.level::int4, t.idx, t.hashes FROM unnest($1, $2) AS k(level, idx)
JOIN act.log_tiles t ON t.level = k.level AND t.idx = k.idx

-- name: write_tile
INSERT INTO act.log_tiles AS t (level, idx, hashes) VALUES ($1, $2, $3)
ON CONFLICT (level, idx) DO UPDATE SET hashes = excluded.hashes

-- name: read_bundle
SELECT ids, entries FROM act.log_entries WHERE idx = $1

-- name: write_bundle
INSERT INTO act.log_entries AS b (idx, first_id, ids, entries) VALUES ($1, $2, $3, $4)
ON CONFLICT (idx) DO UPDATE SET ids = excluded.ids, entries = excluded.entries

-- name: verifier_keys
SELECT vkey FROM act.log_keys ORDER BY vkey

-- name: bundle_of_id
SELECT idx, ids FROM act.log_entries WHERE first_id <= $1 ORDER BY first_id DESC LIMIT 1
