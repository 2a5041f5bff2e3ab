-- pg_act 0.2.6 -> 0.3.0.
-- - Removal records (docs/verifiable-log.md): act.truncate writes one for what
--   it deletes (act.log_removals, act.log_removals(), the stream
--   __truncations__); act.verify_log accounts for every missing entry by one.
--   The entries already missing when this script runs are accounted for by
--   one record marked before_upgrade (what it can and cannot prove: ibid.).
-- - act.status() gains seal_stopped and act.metrics() pg_act_log_seal_stopped:
--   sealing stops before an event whose hash is not 32 bytes, and says so.
-- - act.verify_inclusion and act.verify_consistency: RFC 9162 proof checks in SQL.
-- - Witnesses: act.register_log_key takes C2SP cosigner keys and
--   act.add_checkpoint_signature their cosignatures; act.checkpoint(NULL) is
--   22004 and the key file must be a regular file (C++ only).
-- - act.claim_events gains max_bytes (a byte budget per claimed row, 16 MB by
--   default): a new trailing argument, so a new signature.
-- - act.release(selector) drops leases and keeps watermarks; act.claim and
--   act.claim_events refuse leases above one hour (C++ only).
-- - act.query_stats with a limit walks the streams through the (stream,
--   version) index instead of reading the whole log (same results).
-- - act.truncate and act.forget_pii check the stream's partition again under
--   act.events' lock, which act.set_partition's conflicts with (act.subscribe
--   and act.widen do under the registry lock, in C++).
-- - act.commit and act.version pin search_path, as every owner-rights function.
-- - act.status().expired_leases and pg_act_expired_leases count no blocked
--   row (a blocked row keeps the lease it was blocked under).
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.3.0'" to load this file. \quit

CREATE TABLE act.log_removals (
  record_id bigint PRIMARY KEY,
  positions int8multirange NOT NULL CHECK (NOT isempty(positions)),
  created   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE act.log_removals IS
  'pg_act: the entry positions each removal record (an event of __truncations__) accounts for';

-- The positions and the statement (the record event's data) for removing
-- these sealed events.
CREATE FUNCTION act._describe_removal(ids bigint[], before_upgrade boolean)
RETURNS TABLE(positions text, statement text)
LANGUAGE c VOLATILE SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_describe_removal';

-- Appends the record for events act.truncate has just deleted (their ids);
-- the record's id. Takes __truncations__'s write lock, so records chain in
-- the order they commit.
CREATE FUNCTION act._record_removal(ids bigint[], before_upgrade boolean DEFAULT false) RETURNS bigint
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  described record;
  head record;
  record_stream constant text := '__truncations__';
  record_meta constant jsonb := '{"correlation": "", "causation": {}}';
  now_ts timestamptz := now();
  prev bytea := '\x0000000000000000000000000000000000000000000000000000000000000000';
  next_version int := 0;
  record_id bigint;
BEGIN
  SELECT * INTO described FROM act._describe_removal(ids, before_upgrade);
  PERFORM act._require_latest_head(record_stream);
  SELECT e.version, e.hash INTO head FROM act.events e WHERE e.stream = record_stream ORDER BY e.version DESC LIMIT 1;
  IF FOUND THEN
    prev := head.hash;
    next_version := head.version + 1;
  END IF;
  INSERT INTO act.events AS e (stream, version, name, data, meta, created, hash)
  VALUES (record_stream, next_version, '__tombstone__', described.statement::jsonb, record_meta, now_ts,
          act.event_hash(prev, record_stream, next_version, '__tombstone__', described.statement::jsonb, record_meta, now_ts))
  RETURNING e.id INTO record_id;
  INSERT INTO act.log_removals (record_id, positions) VALUES (record_id, described.positions::int8multirange);
  RETURN record_id;
END $$;

CREATE FUNCTION act.log_removals()
RETURNS TABLE(record_id bigint, record_position bigint, removed bigint, positions int8multirange)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT r.record_id, act.log_position(r.record_id),
         (SELECT sum(upper(run) - lower(run)) FROM unnest(r.positions) AS run)::bigint, r.positions
    FROM act.log_removals r ORDER BY r.record_id
$$;
COMMENT ON FUNCTION act.log_removals() IS
  'The removal records: each record event''s id and entry position (NULL until sealed), how many entries it removed and their positions';

-- Why sealing cannot go on: the first event the tree lacks has a hash that
-- is not 32 bytes (one primary-key lookup). NULL when nothing stops it.
CREATE FUNCTION act._seal_stop() RETURNS text
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_seal_stop';

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
  gone_ids bigint[];
  removed_ids bigint[] := '{}';
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
    IF target ->> 'stream' = '__truncations__' THEN
      RAISE EXCEPTION 'targets[%].stream "__truncations__" holds the log''s removal records: it cannot be truncated', position
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
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
    -- Again under the lock act.set_partition's conflicts with: taking it
    -- brought in a setting committed while this call waited (as act.commit).
    LOCK TABLE act.events IN ROW EXCLUSIVE MODE;
    PERFORM act._require_hosted(target_stream);
    -- The log's tree keeps what is deleted: seal it first.
    -- A stream's ids rise with its versions: its last id is its head's, found
    -- through (stream, version); max(id) would walk the id index from the top.
    PERFORM act._seal_through(h.id)
       FROM (SELECT e.id FROM act.events e WHERE e.stream = target_stream ORDER BY e.version DESC LIMIT 1) h;
    WITH gone AS (DELETE FROM act.events e WHERE e.stream = target_stream RETURNING e.id)
    SELECT count(*), coalesce(array_agg(gone.id), '{}') INTO removed, gone_ids FROM gone;
    removed_ids := removed_ids || gone_ids;
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
    LOCK TABLE act.events IN ROW EXCLUSIVE MODE;
    PERFORM act._require_hosted(target_stream);
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
    PERFORM act._seal_through(h.id)
       FROM (SELECT e.id FROM act.events e WHERE e.stream = target_stream AND e.version < boundary.version
              ORDER BY e.version DESC LIMIT 1) h;
    WITH gone AS (DELETE FROM act.events e WHERE e.stream = target_stream AND e.id < boundary.id RETURNING e.id)
    SELECT count(*), coalesce(array_agg(gone.id), '{}') INTO removed, gone_ids FROM gone;
    removed_ids := removed_ids || gone_ids;
    stream := target_stream; deleted := removed; id := boundary.id; version := boundary.version;
    name := boundary.name; before := window_before;
    RETURN NEXT;
  END LOOP;

  -- What was deleted stays accounted for in the log (docs/verifiable-log.md).
  IF cardinality(removed_ids) > 0 THEN
    PERFORM act._record_removal(removed_ids);
  END IF;
END $$;
COMMENT ON FUNCTION act.truncate(jsonb) IS
  'Closes streams (tombstone), compacts them to a snapshot, or drops events before a retention window';

DROP FUNCTION act.status();
CREATE FUNCTION act.status()
RETURNS TABLE(mode text, horizon bigint, max_event_id bigint, sealed_size bigint, subscriptions bigint,
              with_work bigint, blocked bigint, leased bigint, expired_leases bigint, oldest_work_age interval,
              horizon_held_for interval, seal_stopped text)
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
         -- A blocked row keeps the lease it was blocked under: it counts as blocked only.
         (SELECT count(*) FROM pending p WHERE NOT p.blocked AND p.leased_by IS NOT NULL
                                           AND p.leased_until <= clock_timestamp()),
         (SELECT clock_timestamp() - min(p.waiting_since) FROM pending p WHERE NOT p.blocked),
         (SELECT clock_timestamp() - min(h.since) FROM act.horizon_holders() h),
         act._seal_stop();
END $$;
COMMENT ON FUNCTION act.status() IS
  'One row: mode, horizon, log head, subscriptions with work, blocked, leased, expired leases, oldest work, held horizon, why sealing stopped';

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
    -- A blocked row keeps the lease it was blocked under: it counts as blocked only.
    ('pg_act_expired_leases', (SELECT count(*) FROM pending p WHERE NOT p.blocked
                                AND p.leased_by IS NOT NULL AND p.leased_until <= clock_timestamp())::double precision),
    ('pg_act_oldest_work_age_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT min(p.waiting_since) FROM pending p WHERE NOT p.blocked)), 0)::double precision),
    ('pg_act_horizon_held_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT min(h.since) FROM act.horizon_holders() h)), 0)::double precision),
    ('pg_act_log_entries', coalesce((SELECT l.size FROM act.log_state l), 0)::double precision),
    ('pg_act_log_seal_stopped', CASE WHEN act._seal_stop() IS NULL THEN 0 ELSE 1 END::double precision),
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
COMMENT ON FUNCTION act.metrics() IS 'Monitoring figures as (metric, labels, value) rows for a Prometheus exporter';

SELECT pg_catalog.pg_extension_config_dump('act.log_removals', '');
GRANT SELECT ON act.log_removals TO act_reader;
REVOKE ALL ON act.log_removals FROM PUBLIC;
REVOKE ALL ON FUNCTION act._describe_removal(bigint[], boolean), act._record_removal(bigint[], boolean),
  act._seal_stop(), act.log_removals(), act.status() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.log_removals(), act.status() TO act_reader;


-- RFC 9162 proof checks in SQL (sql/src/57_proof_checks.sql).
CREATE FUNCTION act.verify_inclusion(leaf_hash bytea, leaf_index bigint, tree_size bigint, path bytea[], root bytea)
RETURNS boolean
LANGUAGE c IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_verify_inclusion';
COMMENT ON FUNCTION act.verify_inclusion(bytea, bigint, bigint, bytea[], bytea) IS
  'Whether path is the RFC 9162 inclusion proof of the leaf hash at leaf_index in the tree of tree_size entries with this root';

CREATE FUNCTION act.verify_consistency(old_size bigint, old_root bytea, new_size bigint, new_root bytea, path bytea[])
RETURNS boolean
LANGUAGE c IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_verify_consistency';
COMMENT ON FUNCTION act.verify_consistency(bigint, bytea, bigint, bytea, bytea[]) IS
  'Whether path is the RFC 9162 consistency proof that the tree of old_size entries with old_root is a prefix of the tree of new_size entries with new_root';

REVOKE ALL ON FUNCTION act.verify_inclusion(bytea, bigint, bigint, bytea[], bytea),
  act.verify_consistency(bigint, bytea, bigint, bytea, bytea[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.verify_inclusion(bytea, bigint, bigint, bytea[], bytea),
  act.verify_consistency(bigint, bytea, bigint, bytea, bytea[]) TO act_reader;

-- Witnesses (56_witnesses.sql): the keys and lines the functions accept are
-- the library's; their comments say so.
COMMENT ON FUNCTION act.register_log_key(text) IS
  'Registers a C2SP verifier key: a checkpoint signer''s (type 0x01) or a witness''s cosigner key (type 0x04); returns its name';
COMMENT ON FUNCTION act.add_checkpoint_signature(text) IS
  'Stores signatures and witness cosignatures made outside the database on a checkpoint of this log, checked against act.log_keys; returns its size';


-- act.release (60_subscriptions.sql): an operator drops leases and keeps the watermarks.
CREATE FUNCTION act.release(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_release';
COMMENT ON FUNCTION act.release(jsonb) IS
  'Drops the leases of the selected streams so any worker may claim them at once; watermarks, retries and blocks stay';

REVOKE ALL ON FUNCTION act.release(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.release(jsonb) TO act_admin;

-- act.claim_events with a byte budget: the old signature goes, calls by name
-- or position with the old arguments reach the new one through its default.
DROP FUNCTION act.claim_events(int, int, text, int, text, int, jsonb);
CREATE FUNCTION act.claim_events(from_lagging int, from_leading int, by text, millis int, lane text DEFAULT NULL,
                                 max_events int DEFAULT 100, acks jsonb DEFAULT NULL, max_bytes int DEFAULT 16777216)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text, events jsonb)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off SET jit = off
AS 'MODULE_PATHNAME', 'act_claim_events';
COMMENT ON FUNCTION act.claim_events(int, int, text, int, text, int, jsonb, int) IS
  'A drain cycle in one call: applies acks as act.ack, claims as act.claim, and hands each claimed stream its events after at';
REVOKE ALL ON FUNCTION act.claim_events(int, int, text, int, text, int, jsonb, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.claim_events(int, int, text, int, text, int, jsonb, int) TO act_worker;

-- act.query_stats: a page walks the streams, not the log.
CREATE OR REPLACE FUNCTION act.query_stats(streams jsonb DEFAULT '{}', options jsonb DEFAULT '{}')
RETURNS TABLE(stream text, head jsonb, tail jsonb, count bigint, names jsonb)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_column
DECLARE
  stream_list text[];
  pattern text;
  exact boolean := true;
  want_tail boolean;
  want_count boolean;
  want_names boolean;
  excluded text[];
  before_id bigint;
  after_stream text;
  max_streams bigint;
  in_c_order boolean;
  candidate text;
  sorted refcursor;
  emitted bigint := 0;
BEGIN
  IF streams IS NULL OR jsonb_typeof(streams) NOT IN ('array', 'object') THEN
    RAISE EXCEPTION 'streams must be a JSON array of stream names or an object {"stream", "stream_exact"}'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF options IS NULL OR jsonb_typeof(options) <> 'object' THEN
    RAISE EXCEPTION 'options must be a JSON object' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF jsonb_typeof(streams) = 'array' THEN
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(streams) s WHERE jsonb_typeof(s) <> 'string') THEN
      RAISE EXCEPTION 'streams must hold only stream names (JSON strings)' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    stream_list := ARRAY(SELECT jsonb_array_elements_text(streams));
    PERFORM act._require_hosted(s) FROM unnest(stream_list) s;
    IF cardinality(stream_list) = 0 THEN
      RETURN;
    END IF;
  ELSE
    PERFORM act._require_known_keys(streams, 'streams', ARRAY['stream', 'stream_exact']);
    IF streams ? 'stream' AND jsonb_typeof(streams -> 'stream') NOT IN ('string', 'null') THEN
      RAISE EXCEPTION 'streams.stream must be a string' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    pattern := streams ->> 'stream';
    -- A pattern unless stream_exact is true, as in selectors.
    exact := coalesce(act._json_boolean(streams -> 'stream_exact', 'streams.stream_exact'), false);
    IF pattern IS NOT NULL AND NOT exact THEN
      PERFORM act._require_regex(pattern, 'streams.stream');
    END IF;
  END IF;
  PERFORM act._require_known_keys(options, 'options',
                                  ARRAY['tail', 'count', 'names', 'exclude', 'before', 'after', 'limit']);
  want_tail := coalesce(act._json_boolean(options -> 'tail', 'options.tail'), false);
  want_count := coalesce(act._json_boolean(options -> 'count', 'options.count'), false);
  want_names := coalesce(act._json_boolean(options -> 'names', 'options.names'), false);
  before_id := act._json_integer(options -> 'before', 'options.before');
  max_streams := act._json_integer(options -> 'limit', 'options.limit');
  IF options ? 'after' AND jsonb_typeof(options -> 'after') NOT IN ('string', 'null') THEN
    RAISE EXCEPTION 'options.after must be a stream name (a JSON string), not %', jsonb_typeof(options -> 'after')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  after_stream := options ->> 'after';
  IF options ? 'exclude' AND jsonb_typeof(options -> 'exclude') NOT IN ('array', 'null') THEN
    RAISE EXCEPTION 'options.exclude must be an array of event names, not %', jsonb_typeof(options -> 'exclude')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(nullif(options -> 'exclude', 'null'), '[]')) x
              WHERE jsonb_typeof(x) <> 'string') THEN
    RAISE EXCEPTION 'options.exclude must hold only event names (JSON strings)' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  excluded := ARRAY(SELECT jsonb_array_elements_text(coalesce(nullif(options -> 'exclude', 'null'), '[]')));
  IF max_streams IS NOT NULL AND (max_streams < 0 OR max_streams > 2147483647) THEN
    RAISE EXCEPTION 'options.limit must be 0 (no limit) to 2147483647, not %', max_streams
      USING ERRCODE = 'invalid_parameter_value';
  END IF;

  -- A page (a limit) of every stream or of a pattern's streams walks the
  -- distinct streams through the (stream, version) index, one descent each,
  -- and reads only the events of the streams it returns: the whole log read
  -- below cost a listing's first page 1 s at 100,000 events (PERFORMANCE.md).
  -- The index is in the database's collation: in the C collation it walks in
  -- the result's order, from `after`, and stops at the limit; in another one
  -- it walks every stream's name (not its events) and sorts them.
  IF max_streams > 0 AND stream_list IS NULL AND NOT (pattern IS NOT NULL AND exact) THEN
    SELECT d.datlocprovider = 'c' AND d.datcollate IN ('C', 'POSIX') INTO in_c_order
      FROM pg_database d WHERE d.datname = current_database();
    IF NOT in_c_order THEN
      OPEN sorted FOR
        WITH RECURSIVE walk(s) AS (
          SELECT min(e.stream) FROM act.events e
          UNION ALL
          SELECT (SELECT min(e.stream) FROM act.events e WHERE e.stream > w.s) FROM walk w WHERE w.s IS NOT NULL
        )
        SELECT w.s FROM walk w
         WHERE w.s IS NOT NULL AND (after_stream IS NULL OR w.s COLLATE "C" > after_stream COLLATE "C")
         ORDER BY w.s COLLATE "C";
    END IF;
    candidate := after_stream;
    LOOP
      IF NOT in_c_order THEN
        FETCH sorted INTO candidate;
      ELSIF candidate IS NULL THEN
        SELECT min(e.stream) INTO candidate FROM act.events e;
      ELSE
        SELECT min(e.stream) INTO candidate FROM act.events e WHERE e.stream > candidate;
      END IF;
      EXIT WHEN candidate IS NULL;
      CONTINUE WHEN pattern IS NOT NULL AND NOT candidate COLLATE "C" ~ pattern;
      -- The stream's rows as the query below has them: its last qualifying
      -- event, its first, its counts by name; none qualifying, no row.
      SELECT act._event_json(e) INTO head FROM act.events e
       WHERE e.stream = candidate AND e.name <> ALL (excluded) AND (before_id IS NULL OR e.id < before_id)
       ORDER BY e.version DESC LIMIT 1;
      CONTINUE WHEN head IS NULL;
      stream := candidate;
      tail := NULL;
      IF want_tail THEN
        SELECT act._event_json(e) INTO tail FROM act.events e
         WHERE e.stream = candidate AND e.name <> ALL (excluded) AND (before_id IS NULL OR e.id < before_id)
         ORDER BY e.version LIMIT 1;
      END IF;
      count := NULL;
      names := NULL;
      IF want_count OR want_names THEN
        SELECT sum(g.n)::bigint, jsonb_object_agg(g.name, g.n) INTO count, names
          FROM (SELECT e.name, count(*) AS n FROM act.events e
                 WHERE e.stream = candidate AND e.name <> ALL (excluded) AND (before_id IS NULL OR e.id < before_id)
                 GROUP BY e.name) g;
        IF NOT want_count THEN
          count := NULL;
        END IF;
        IF NOT want_names THEN
          names := NULL;
        END IF;
      END IF;
      RETURN NEXT;
      emitted := emitted + 1;
      EXIT WHEN emitted >= max_streams;
    END LOOP;
    IF NOT in_c_order THEN
      CLOSE sorted;
    END IF;
    RETURN;
  END IF;

  RETURN QUERY
  WITH filtered AS MATERIALIZED (
    SELECT e.* FROM act.events e
     WHERE (stream_list IS NULL OR e.stream = ANY (stream_list))
       AND (pattern IS NULL OR (exact AND e.stream = pattern) OR (NOT exact AND e.stream COLLATE "C" ~ pattern))
       AND e.name <> ALL (excluded)
       AND (before_id IS NULL OR e.id < before_id)
       AND (after_stream IS NULL OR e.stream COLLATE "C" > after_stream COLLATE "C")
  ), heads AS (
    SELECT DISTINCT ON (f.stream) f.stream, act._event_json(f) AS head
      FROM filtered f ORDER BY f.stream, f.version DESC
  ), tails AS (
    SELECT DISTINCT ON (f.stream) f.stream, act._event_json(f) AS tail
      FROM filtered f WHERE want_tail ORDER BY f.stream, f.version
  ), counts AS (
    SELECT g.stream, sum(g.n)::bigint AS count, jsonb_object_agg(g.name, g.n) AS names
      FROM (SELECT f.stream, f.name, count(*) AS n FROM filtered f
             WHERE want_count OR want_names GROUP BY f.stream, f.name) g
     GROUP BY g.stream
  )
  SELECT h.stream, h.head, t.tail,
         CASE WHEN want_count THEN c.count END,
         CASE WHEN want_names THEN c.names END
    FROM heads h
    LEFT JOIN tails t ON t.stream = h.stream
    LEFT JOIN counts c ON c.stream = h.stream
   ORDER BY h.stream COLLATE "C"
   LIMIT CASE WHEN max_streams IS NULL OR max_streams = 0 THEN NULL ELSE max_streams END;
END $$;

-- act.forget_pii (10_commit.sql) checks the partition under act.events'
-- lock, which act.set_partition's conflicts with.
CREATE OR REPLACE FUNCTION act.forget_pii(stream text) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  forgotten bigint;
BEGIN
  IF forget_pii.stream IS NULL THEN
    RAISE EXCEPTION 'stream must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  -- Checked under the lock act.set_partition's conflicts with: taking it
  -- brought in a setting committed while this call waited (as act.commit).
  LOCK TABLE act.events IN ROW EXCLUSIVE MODE;
  PERFORM act._require_hosted(forget_pii.stream);
  UPDATE act.events e SET pii = NULL WHERE e.stream = forget_pii.stream AND e.pii IS NOT NULL;
  GET DIAGNOSTICS forgotten = ROW_COUNT;
  RETURN forgotten;
END $$;

-- act.commit and act.version pin search_path like every owner-rights function.
ALTER FUNCTION act.commit(text, jsonb, jsonb, bigint) SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION act.version(text) SET search_path = pg_catalog, pg_temp;

-- The entries whose events are gone by now (deleted by act.truncate before
-- removal records existed, or otherwise): one record accounts for them.
DO $upgrade$
DECLARE
  missing bigint[];
BEGIN
  SELECT array_agg(x.id ORDER BY x.id) INTO missing
    FROM act.log_entries b, unnest(b.ids) AS x(id)
   WHERE NOT EXISTS (SELECT 1 FROM act.events e WHERE e.id = x.id);
  IF missing IS NOT NULL THEN
    PERFORM act._before_taking_ids();
    PERFORM act._record_removal(missing, true);
  END IF;
END $upgrade$;
