-- pg_act 0.2.1 -> 0.2.2.
-- - The verifiable log: the whole log as an RFC 9162 Merkle tree stored as
--   C2SP tiles (act.log_state, act.log_tiles, act.log_entries), sealed off
--   the commit path by act.seal(); act.log_size, act.merkle_root,
--   act.log_position, act.prove_inclusion, act.prove_consistency,
--   act.log_entries, act.prove_stream and act.verify_log; checkpoints in
--   act.checkpoints, verifier keys in act.log_keys. The tree starts empty:
--   the first act.seal() (or the seal worker) appends every event so far.
-- - act.truncate seals the events it deletes first.
-- - act.status reports the tree's size; act.metrics pg_act_log_entries and
--   pg_act_log_unsealed_age_seconds.
-- - act.verify is C++: it reads the rows through the (stream, version) index
--   and hashes the stored jsonb without making text of it.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.2.2'" to load this file. \quit

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

REVOKE ALL ON act.log_state, act.log_tiles, act.log_entries, act.checkpoints, act.log_keys FROM PUBLIC;
REVOKE ALL ON FUNCTION act.seal(), act._seal_through(bigint, int), act.log_size(), act.merkle_root(bigint),
  act.log_position(bigint), act.prove_inclusion(bigint, bigint), act.prove_consistency(bigint, bigint),
  act.log_entries(bigint, bigint), act._stream_proof_target(text, bigint), act.prove_stream(text, bigint),
  act.verify_log(bigint, bigint), act.checkpoint(), act.checkpoint(boolean), act.add_checkpoint_signature(text),
  act.register_log_key(text), act.log_wait(bigint, int) FROM PUBLIC;
GRANT SELECT ON act.log_state, act.log_tiles, act.log_entries, act.checkpoints, act.log_keys TO act_reader;
GRANT EXECUTE ON FUNCTION act.log_size(), act.merkle_root(bigint), act.log_position(bigint),
  act.prove_inclusion(bigint, bigint), act.prove_consistency(bigint, bigint), act.log_entries(bigint, bigint),
  act.prove_stream(text, bigint), act.verify_log(bigint, bigint), act.log_wait(bigint, int) TO act_reader;
GRANT EXECUTE ON FUNCTION act.seal(), act.checkpoint(), act.checkpoint(boolean), act.add_checkpoint_signature(text),
  act.register_log_key(text) TO act_admin;
SELECT pg_catalog.pg_extension_config_dump('act.log_state', '');
SELECT pg_catalog.pg_extension_config_dump('act.log_tiles', '');
SELECT pg_catalog.pg_extension_config_dump('act.log_entries', '');
SELECT pg_catalog.pg_extension_config_dump('act.checkpoints', '');
SELECT pg_catalog.pg_extension_config_dump('act.log_keys', '');

-- act.truncate seals what it deletes first.
CREATE OR REPLACE FUNCTION act.truncate(targets jsonb)
RETURNS TABLE(stream text, deleted bigint, id bigint, version int, name text, before timestamptz)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_column
DECLARE
  target jsonb;
  position int := 0;
  target_stream text;
  seed_name text;
  seed_data jsonb;
  seed_meta jsonb;
  window_before timestamptz;
  window_max_id bigint;
  boundary record;
  predecessor bytea;
  removed bigint;
  seeded record;
  now_ts timestamptz := now();
BEGIN
  IF targets IS NULL OR jsonb_typeof(targets) <> 'array' THEN
    RAISE EXCEPTION 'targets must be a JSON array, not %', coalesce(jsonb_typeof(targets), 'null')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- Validate everything first: bad input writes nothing.
  FOR target IN SELECT t FROM jsonb_array_elements(targets) AS t LOOP
    IF jsonb_typeof(target) <> 'object' THEN
      RAISE EXCEPTION 'targets[%] must be a JSON object', position USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM act._require_known_keys(target, format('targets[%s]', position),
                                    ARRAY['stream', 'snapshot', 'meta', 'before', 'max_id']);
    PERFORM act._require_stream(target -> 'stream', format('targets[%s].stream', position));
    IF (SELECT count(*) FROM jsonb_array_elements(targets) t WHERE t ->> 'stream' = target ->> 'stream') > 1 THEN
      RAISE EXCEPTION 'targets name stream "%" more than once', target ->> 'stream' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF target ? 'before' AND jsonb_typeof(target -> 'before') <> 'null' THEN
      IF target ? 'snapshot' AND jsonb_typeof(target -> 'snapshot') <> 'null' THEN
        RAISE EXCEPTION 'targets[%] has both "snapshot" and "before"', position USING ERRCODE = 'invalid_parameter_value';
      END IF;
      IF jsonb_typeof(target -> 'before') <> 'string' THEN
        RAISE EXCEPTION 'targets[%].before must be a timestamp string', position USING ERRCODE = 'invalid_parameter_value';
      END IF;
      PERFORM (target ->> 'before')::timestamptz;
      IF target ? 'max_id' AND jsonb_typeof(target -> 'max_id') NOT IN ('number', 'null') THEN
        RAISE EXCEPTION 'targets[%].max_id must be a number', position USING ERRCODE = 'invalid_parameter_value';
      END IF;
      PERFORM (target ->> 'max_id')::bigint;
    ELSE
      IF target ? 'max_id' THEN
        RAISE EXCEPTION 'targets[%].max_id needs "before" (a retention window)', position USING ERRCODE = 'invalid_parameter_value';
      END IF;
      PERFORM act._require_object(nullif(target -> 'snapshot', 'null'), format('targets[%s].snapshot', position));
      PERFORM act._require_object(nullif(target -> 'meta', 'null'), format('targets[%s].meta', position));
      -- meta.correlation is indexed: the limit of act.commit (core kMaxCorrelationBytes).
      IF octet_length(target -> 'meta' ->> 'correlation') > 1000 THEN
        RAISE EXCEPTION 'targets[%].meta.correlation takes % bytes: the limit is 1000 bytes', position,
          octet_length(target -> 'meta' ->> 'correlation') USING ERRCODE = 'invalid_parameter_value';
      END IF;
    END IF;
    position := position + 1;
  END LOOP;

  -- The same fence as act.commit in fenced mode (ids stay visible in id
  -- order); in concurrent mode, the in-flight bound before taking ids.
  PERFORM act._before_taking_ids();

  -- Full targets first, then windowed ones, each group in input order.
  FOR target IN SELECT t FROM jsonb_array_elements(targets) WITH ORDINALITY AS a(t, n)
                 WHERE NOT (t ? 'before' AND jsonb_typeof(t -> 'before') <> 'null') ORDER BY n LOOP
    target_stream := target ->> 'stream';
    seed_data := nullif(target -> 'snapshot', 'null');
    seed_name := CASE WHEN seed_data IS NULL THEN '__tombstone__' ELSE '__snapshot__' END;
    seed_data := coalesce(seed_data, '{}');
    seed_meta := coalesce(nullif(target -> 'meta', 'null'), '{"correlation": "", "causation": {}}');
    PERFORM act._require_latest_head(target_stream);
    -- The log's tree keeps what is deleted: seal it first.
    PERFORM act._seal_through(s.last_id)
       FROM (SELECT max(e.id) AS last_id FROM act.events e WHERE e.stream = target_stream) s WHERE s.last_id IS NOT NULL;
    DELETE FROM act.events e WHERE e.stream = target_stream;
    GET DIAGNOSTICS removed = ROW_COUNT;
    DELETE FROM act.stream_anchors a WHERE a.stream = target_stream;
    INSERT INTO act.events AS e (stream, version, name, data, meta, created, hash)
    VALUES (target_stream, 0, seed_name, seed_data, seed_meta, now_ts,
            act.event_hash('\x0000000000000000000000000000000000000000000000000000000000000000'::bytea,
                           target_stream, 0, seed_name, seed_data, seed_meta, now_ts))
    RETURNING e.id, e.version, e.name INTO seeded;
    stream := target_stream; deleted := removed; id := seeded.id; version := seeded.version;
    name := seeded.name; before := NULL;
    RETURN NEXT;
  END LOOP;

  FOR target IN SELECT t FROM jsonb_array_elements(targets) WITH ORDINALITY AS a(t, n)
                 WHERE t ? 'before' AND jsonb_typeof(t -> 'before') <> 'null' ORDER BY n LOOP
    target_stream := target ->> 'stream';
    window_before := (target ->> 'before')::timestamptz;
    window_max_id := (target ->> 'max_id')::bigint;
    SELECT e.id, e.version, e.name INTO boundary
      FROM act.events e
     WHERE e.stream = target_stream AND e.name = '__snapshot__' AND e.created < window_before
       AND (window_max_id IS NULL OR e.id <= window_max_id)
     ORDER BY e.id DESC LIMIT 1;
    CONTINUE WHEN NOT FOUND;
    -- Keep the chain verifiable: remember the hash the boundary was chained to.
    SELECT e.hash INTO predecessor FROM act.events e
     WHERE e.stream = target_stream AND e.version = boundary.version - 1;
    IF FOUND THEN
      INSERT INTO act.stream_anchors AS a (stream, version, prev) VALUES (target_stream, boundary.version, predecessor)
      ON CONFLICT ON CONSTRAINT stream_anchors_pkey DO UPDATE SET version = excluded.version, prev = excluded.prev;
    END IF;
    PERFORM act._seal_through(s.last_id)
       FROM (SELECT max(e.id) AS last_id FROM act.events e WHERE e.stream = target_stream AND e.id < boundary.id) s
      WHERE s.last_id IS NOT NULL;
    DELETE FROM act.events e WHERE e.stream = target_stream AND e.id < boundary.id;
    GET DIAGNOSTICS removed = ROW_COUNT;
    stream := target_stream; deleted := removed; id := boundary.id; version := boundary.version;
    name := boundary.name; before := window_before;
    RETURN NEXT;
  END LOOP;
END $$;

-- act.status reports the tree's size.
CREATE OR REPLACE FUNCTION act.status()
RETURNS TABLE(mode text, horizon bigint, max_event_id bigint, sealed_size bigint, subscriptions bigint,
              with_work bigint, blocked bigint, leased bigint, expired_leases bigint, oldest_work_age interval,
              horizon_held_for interval)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
  -- Without JIT: with seqscans off, a scan of the one-row act.log_state is costed
  -- high enough for JIT to compile the query for seconds on every call.
  SET jit = off AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH pending AS MATERIALIZED (SELECT * FROM act._pending())
  SELECT act.mode(), act.horizon(), act.max_event_id(), (SELECT l.size FROM act.log_state l),
         (SELECT count(*) FROM act.subscription_rows),
         (SELECT count(*) FROM pending p WHERE NOT p.blocked),
         (SELECT count(*) FROM pending p WHERE p.blocked),
         (SELECT count(*) FROM pending p WHERE p.leased_until > clock_timestamp()),
         (SELECT count(*) FROM pending p WHERE p.leased_by IS NOT NULL AND p.leased_until <= clock_timestamp()),
         (SELECT clock_timestamp() - min(p.waiting_since) FROM pending p WHERE NOT p.blocked),
         (SELECT clock_timestamp() - min(h.since) FROM act.horizon_holders() h);
END $$;

-- act.metrics reports the log's tree: its entries and the age of the oldest event it lacks.
CREATE OR REPLACE FUNCTION act.metrics() RETURNS TABLE(metric text, labels jsonb, value double precision)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
  -- Without JIT: with seqscans off, a scan of the one-row act.log_state is costed
  -- high enough for JIT to compile the query for seconds on every call.
  SET jit = off AS $$
#variable_conflict use_column
BEGIN
  -- One pass over the work set for every figure, store-wide and per lane.
  RETURN QUERY
  WITH pending AS MATERIALIZED (SELECT * FROM act._pending()),
  totals(metric, value) AS (VALUES
    ('pg_act_concurrent_mode', CASE WHEN act.mode() = 'concurrent' THEN 1 ELSE 0 END::double precision),
    ('pg_act_horizon', act.horizon()::double precision),
    ('pg_act_max_event_id', act.max_event_id()::double precision),
    ('pg_act_subscriptions', (SELECT count(*) FROM act.subscription_rows)::double precision),
    ('pg_act_expired_leases', (SELECT count(*) FROM pending p
                                WHERE p.leased_by IS NOT NULL AND p.leased_until <= clock_timestamp())::double precision),
    ('pg_act_oldest_work_age_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT min(p.waiting_since) FROM pending p WHERE NOT p.blocked)), 0)::double precision),
    ('pg_act_horizon_held_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT min(h.since) FROM act.horizon_holders() h)), 0)::double precision),
    ('pg_act_log_entries', coalesce((SELECT l.size FROM act.log_state l), 0)::double precision),
    -- The oldest event the log's tree does not hold yet: one primary-key lookup.
    ('pg_act_log_unsealed_age_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT e.created FROM act.events e
         WHERE e.id > coalesce((SELECT l.sealed_upto_id FROM act.log_state l), 0) ORDER BY e.id LIMIT 1)), 0)::double precision))
  SELECT t.metric, '{}'::jsonb, t.value FROM totals t
  UNION ALL
  SELECT 'pg_act_subscriptions_' || k.kind, jsonb_build_object('lane', l.lane),
         (SELECT count(*) FROM pending p
           WHERE p.lane = l.lane AND CASE k.kind WHEN 'with_work' THEN NOT p.blocked
                                                 WHEN 'blocked' THEN p.blocked
                                                 ELSE p.leased_until > clock_timestamp() END)::double precision
    FROM (SELECT DISTINCT p.lane FROM pending p) l
   CROSS JOIN (VALUES ('with_work'), ('blocked'), ('leased')) k(kind)
  UNION ALL
  SELECT 'pg_act_' || c.counter || '_total', '{}'::jsonb, c.value::double precision FROM act._counters() c
  UNION ALL
  SELECT 'pg_act_counters_reset_time_seconds', '{}'::jsonb, extract(epoch FROM min(c.since))::double precision
    FROM act._counters() c HAVING count(*) > 0
   ORDER BY 1, 2;
END $$;

-- act.verify in C++ (extension/log/verify.cpp): same signature, results and
-- grants; it plans no query, so it drops the jit and parallel-worker settings.
CREATE OR REPLACE FUNCTION act.verify(stream text DEFAULT NULL)
RETURNS TABLE(stream text, events bigint, valid boolean, first_bad_version int)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_verify';
