-- The statements checkpoints.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: latest_checkpoint
SELECT size, note FROM act.checkpoints ORDER BY size DESC LIMIT 1

-- name: checkpoint_at
SELECT note FROM act.checkpoints WHERE size = $1

-- name: insert_checkpoint
INSERT INTO act.checkpoints (size, root, note) VALUES ($1, $2, $3)

-- name: update_checkpoint
UPDATE act.checkpoints SET note = $3 WHERE size = $1 AND root = $2

-- name: insert_key
INSERT INTO act.log_keys (vkey, name, key_id, public_key) VALUES ($1, $2, $3, $4) ON CONFLICT (vkey) DO NOTHING

-- name: key_named
SELECT vkey FROM act.log_keys WHERE name = $1 AND key_id = $2
