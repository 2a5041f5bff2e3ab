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

CREATE FUNCTION act.seal() RETURNS TABLE(size bigint, root bytea, sealed_upto_id bigint)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_seal';
COMMENT ON FUNCTION act.seal() IS
  'Appends every event at or below the horizon that the log''s Merkle tree lacks; returns the tree';

-- For act.truncate: seals through an id, waiting for the horizon to reach it.
CREATE FUNCTION act._seal_through(id bigint, timeout_ms int DEFAULT 10000) RETURNS void
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_seal_through';

-- Why sealing cannot go on: the first event the tree lacks has a hash that
-- is not 32 bytes (one primary-key lookup). NULL when nothing stops it.
CREATE FUNCTION act._seal_stop() RETURNS text
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_seal_stop';

CREATE FUNCTION act.log_size() RETURNS TABLE(size bigint, root bytea, sealed_upto_id bigint)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_log_size';
COMMENT ON FUNCTION act.log_size() IS 'The log''s Merkle tree now: entries, root, sealed through which id';

CREATE FUNCTION act.merkle_root(tree_size bigint) RETURNS bytea
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_merkle_root';
COMMENT ON FUNCTION act.merkle_root(bigint) IS 'The RFC 9162 root of the log''s first tree_size entries';

CREATE FUNCTION act.log_position(id bigint) RETURNS bigint
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_log_position';
COMMENT ON FUNCTION act.log_position(bigint) IS 'The event''s entry index in the log; NULL when not sealed or no such event';

CREATE FUNCTION act.prove_inclusion(id bigint, tree_size bigint DEFAULT NULL)
RETURNS TABLE(leaf_index bigint, tree_size bigint, leaf_hash bytea, path bytea[], root bytea)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_prove_inclusion';
COMMENT ON FUNCTION act.prove_inclusion(bigint, bigint) IS
  'RFC 9162 inclusion proof of the event''s entry in the tree of tree_size entries (NULL: the current tree)';

CREATE FUNCTION act.prove_consistency(old_size bigint, new_size bigint) RETURNS bytea[]
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_prove_consistency';
COMMENT ON FUNCTION act.prove_consistency(bigint, bigint) IS
  'RFC 9162 consistency proof from the tree of old_size entries to the tree of new_size entries';

CREATE FUNCTION act.log_entries(from_position bigint, to_position bigint)
RETURNS TABLE("position" bigint, id bigint, hash bytea)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_log_entries';
COMMENT ON FUNCTION act.log_entries(bigint, bigint) IS
  'The log''s entries at positions [from_position, to_position): event id and entry data (the event hash)';

-- The proof an auditor of one stream needs: its latest event in the tree,
-- whose hash chains every version before it. Which event that is:
CREATE FUNCTION act._stream_proof_target(stream text, tree_size bigint)
RETURNS TABLE(event_id bigint, event_version int, sized bigint)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  latest record;
BEGIN
  IF stream IS NULL THEN
    RAISE EXCEPTION 'stream must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  sized := coalesce(tree_size, (SELECT s.size FROM act.log_size() s));
  -- Newest first: the first with an entry inside the tree is the one.
  FOR latest IN SELECT e.id, e.version FROM act.events e WHERE e.stream = _stream_proof_target.stream
                 ORDER BY e.version DESC LOOP
    IF act.log_position(latest.id) < sized THEN
      event_id := latest.id;
      event_version := latest.version;
      RETURN NEXT;
      RETURN;
    END IF;
  END LOOP;
  RAISE EXCEPTION 'stream "%" has no event in the tree of % entries', stream, sized
    USING ERRCODE = 'invalid_parameter_value';
END $$;

CREATE FUNCTION act.prove_stream(stream text, tree_size bigint DEFAULT NULL)
RETURNS TABLE(version int, leaf_index bigint, tree_size bigint, leaf_hash bytea, path bytea[], root bytea)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT t.event_version, p.leaf_index, p.tree_size, p.leaf_hash, p.path, p.root
    FROM act._stream_proof_target($1, $2) t, act.prove_inclusion(t.event_id, t.sized) p
$$;
COMMENT ON FUNCTION act.prove_stream(text, bigint) IS
  'Inclusion proof of the stream''s latest event in the tree (its hash chains the whole stream)';

CREATE FUNCTION act.verify_log(from_size bigint DEFAULT 0, to_size bigint DEFAULT NULL)
RETURNS TABLE("position" bigint, id bigint, problem text)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET jit = off
  SET max_parallel_workers_per_gather = 0
AS 'MODULE_PATHNAME', 'act_verify_log';
COMMENT ON FUNCTION act.verify_log(bigint, bigint) IS
  'Checks entries [from_size, to_size) against their events and the stored tree against its entries; no rows when all agree';

CREATE FUNCTION act.checkpoint() RETURNS text
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_checkpoint';
COMMENT ON FUNCTION act.checkpoint() IS
  'Seals, then states the tree as a C2SP checkpoint (signed with act.checkpoint_key_file when set), kept per size';

-- sign = false: the checkpoint text without the database's signature, for
-- signing outside the database (actctl log checkpoint --sign).
CREATE FUNCTION act.checkpoint(sign boolean) RETURNS text
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_checkpoint';
COMMENT ON FUNCTION act.checkpoint(boolean) IS
  'act.checkpoint(), signed by the database''s key only when sign is true';

CREATE FUNCTION act.add_checkpoint_signature(note text) RETURNS bigint
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_add_checkpoint_signature';
COMMENT ON FUNCTION act.add_checkpoint_signature(text) IS
  'Stores signatures made outside the database on a checkpoint of this log, checked against act.log_keys; returns its size';

CREATE FUNCTION act.register_log_key(vkey text) RETURNS text
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_register_log_key';
COMMENT ON FUNCTION act.register_log_key(text) IS
  'Registers a C2SP verifier key whose checkpoint signatures act.add_checkpoint_signature accepts; returns its name';

-- Until a checkpoint covers the event: its size, or NULL at the timeout.
CREATE FUNCTION act.log_wait(id bigint, timeout_ms int DEFAULT 10000) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  deadline timestamptz;
  entry bigint;
  covering bigint;
BEGIN
  IF log_wait.id IS NULL OR log_wait.timeout_ms IS NULL THEN
    RAISE EXCEPTION 'id and timeout_ms must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF log_wait.timeout_ms < 0 THEN
    RAISE EXCEPTION 'timeout_ms must be 0 or more, not %', log_wait.timeout_ms USING ERRCODE = 'invalid_parameter_value';
  END IF;
  deadline := clock_timestamp() + log_wait.timeout_ms * interval '1 millisecond';
  LOOP
    -- Each statement reads a fresh snapshot (READ COMMITTED).
    entry := act.log_position(log_wait.id);
    IF entry IS NOT NULL THEN
      SELECT min(c.size) INTO covering FROM act.checkpoints c WHERE c.size > entry;
      IF covering IS NOT NULL THEN RETURN covering; END IF;
    END IF;
    EXIT WHEN clock_timestamp() >= deadline;
    PERFORM pg_sleep(least(0.01, extract(epoch FROM deadline - clock_timestamp())::float8));
  END LOOP;
  RETURN NULL;
END $$;
COMMENT ON FUNCTION act.log_wait(bigint, int) IS
  'Waits until a checkpoint covers the event; the smallest such checkpoint''s size, NULL at the timeout';
