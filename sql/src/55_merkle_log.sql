-- The verifiable log (docs/verifiable-log.md): the whole log as an RFC 9162
-- Merkle tree, stored as C2SP tiles, sealed off the commit path; proofs,
-- checkpoints and the check of the stored tree. C++ in extension/merkle/.

-- The tree now: one row, written only by the sealer. No row yet = the empty tree.
CREATE TABLE act.log_state (
  one            boolean PRIMARY KEY DEFAULT true CHECK (one),
  size           bigint NOT NULL CHECK (size >= 0),
  root           bytea NOT NULL CHECK (length(root) = 32),
  sealed_upto_id bigint NOT NULL,
  sealed_at      timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE act.log_state IS
  'pg_act: the log''s Merkle tree now: entries, root, and the id every event at or below which is sealed';

-- C2SP tlog-tiles: tile idx at tile level `level` holds 256 consecutive hashes
-- of tree level 8 * level (level 0: leaf hashes). A full tile never changes;
-- the right edge of each level is a partial tile, rewritten as the tree grows.
CREATE TABLE act.log_tiles (
  level  smallint NOT NULL CHECK (level >= 0),
  idx    bigint NOT NULL CHECK (idx >= 0),
  hashes bytea NOT NULL CHECK (length(hashes) BETWEEN 32 AND 8192 AND length(hashes) % 32 = 0),
  PRIMARY KEY (level, idx)
);
-- Hashes do not compress.
ALTER TABLE act.log_tiles ALTER COLUMN hashes SET STORAGE EXTERNAL;
COMMENT ON TABLE act.log_tiles IS 'pg_act: the log''s Merkle tree as C2SP tlog-tiles';

-- The entries beside each level-0 tile: positions idx * 256 ...; the event id
-- and the entry data (the event's stored hash) of each. Kept when act.truncate
-- deletes the events.
CREATE TABLE act.log_entries (
  idx      bigint PRIMARY KEY CHECK (idx >= 0),
  first_id bigint NOT NULL UNIQUE,
  ids      bigint[] NOT NULL,
  entries  bytea NOT NULL CHECK (length(entries) = 32 * cardinality(ids))
);
ALTER TABLE act.log_entries ALTER COLUMN entries SET STORAGE EXTERNAL;
COMMENT ON TABLE act.log_entries IS 'pg_act: the log''s entries, 256 per row: event ids and event hashes by position';

-- Every checkpoint the log has given out, one per size; never deleted.
CREATE TABLE act.checkpoints (
  size    bigint PRIMARY KEY CHECK (size >= 0),
  root    bytea NOT NULL CHECK (length(root) = 32),
  note    text NOT NULL,
  created timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE act.checkpoints IS 'pg_act: checkpoints of the log (C2SP tlog-checkpoint signed notes), one per size';

-- Verifier keys whose signatures act.add_checkpoint_signature accepts: public halves only.
CREATE TABLE act.log_keys (
  vkey       text PRIMARY KEY,
  name       text NOT NULL,
  key_id     bytea NOT NULL CHECK (length(key_id) = 4),
  public_key bytea NOT NULL CHECK (length(public_key) = 32),
  registered timestamptz NOT NULL DEFAULT now(),
  UNIQUE (name, key_id)
);
COMMENT ON TABLE act.log_keys IS 'pg_act: C2SP verifier keys registered for checkpoint signatures';
