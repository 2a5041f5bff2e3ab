-- pg_act 0.1.2 -> 0.2.0.
-- - Strict input: every JSON argument refuses a key its function does not
--   know (22023 naming the key); act.query_stats types its options strictly
--   and reads {"stream": p} as a pattern unless stream_exact is true.
-- - act.claim_events: acks, claim and each claimed stream's events in one call.
-- - Monitoring: act.status, act.lag, act.metrics (and an index of blocked rows).
-- - act.commit takes expected_version as bigint (drivers that bind int8).
-- - Personal data: the role act_pii_reader alone may read act.events.pii;
--   act_reader keeps SELECT on every other column, and act.query returns
--   pii as NULL to callers without it.
-- - Patterns match in the C collation everywhere (act.query_stats here; the
--   library for marking, back-fill, act.query and selectors).
-- - act.truncate bounds a seed's meta.correlation (it is indexed), as
--   act.commit now does.
-- - The library (no SQL change): act.ack refuses a watermark beyond what any
--   read could have reached; act.defer(selector, NULL) clears a deferral;
--   re-subscribing with another source or names raises a NOTICE; commits and
--   subscribes read subscriptions and events on the latest snapshot under
--   REPEATABLE READ too; lanes and correlator keys are bounded; the fenced
--   horizon never decreases; setting act.notify_payload; one lock order for
--   subscribe and commit (no deadlock when a transaction does both).
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.2.0'" to load this file. \quit

-- act.commit: expected_version becomes bigint (one function, so no call is ambiguous).
DROP FUNCTION act.commit(text, jsonb, jsonb, int);
CREATE FUNCTION act.commit(stream text, events jsonb, meta jsonb DEFAULT '{}', expected_version bigint DEFAULT NULL)
RETURNS SETOF act.events
LANGUAGE c VOLATILE SECURITY DEFINER
AS 'MODULE_PATHNAME', 'act_commit';
COMMENT ON FUNCTION act.commit(text, jsonb, jsonb, bigint) IS
  'Appends events to a stream atomically under optimistic concurrency (40001 on a version conflict)';

REVOKE ALL ON FUNCTION act.commit(text, jsonb, jsonb, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.commit(text, jsonb, jsonb, bigint) TO act_writer;

-- Strict reads of JSON arguments in SQL.
CREATE FUNCTION act._require_known_keys(value jsonb, what text, known text[]) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  unknown text;
BEGIN
  SELECT k INTO unknown FROM jsonb_object_keys(value) AS k WHERE k <> ALL (known) ORDER BY k LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION '%: unknown key "%" (known: %)', what, unknown, array_to_string(known, ', ')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
END $$;

CREATE FUNCTION act._json_boolean(value jsonb, what text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
    RETURN NULL;
  END IF;
  IF jsonb_typeof(value) <> 'boolean' THEN
    RAISE EXCEPTION '% must be a boolean (true or false), not %', what, jsonb_typeof(value)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value::boolean;
END $$;

CREATE FUNCTION act._json_integer(value jsonb, what text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
    RETURN NULL;
  END IF;
  IF jsonb_typeof(value) <> 'number' THEN
    RAISE EXCEPTION '% must be an integer, not %', what, jsonb_typeof(value) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- Nested: SQL does not promise to evaluate OR's operands in order.
  IF value::numeric <> trunc(value::numeric) OR value::numeric NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN
    RAISE EXCEPTION '% must be an integer, not %', what, value::text USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value::bigint;
END $$;

CREATE FUNCTION act._require_regex(pattern text, what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM '' ~ pattern;
EXCEPTION WHEN invalid_regular_expression THEN
  RAISE EXCEPTION '% is not a valid regular expression: %', what, SQLERRM USING ERRCODE = 'invalid_regular_expression';
END $$;

REVOKE ALL ON FUNCTION act._require_known_keys(jsonb, text, text[]), act._json_boolean(jsonb, text),
  act._json_integer(jsonb, text), act._require_regex(text, text) FROM PUBLIC;

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
    DELETE FROM act.events e WHERE e.stream = target_stream AND e.id < boundary.id;
    GET DIAGNOSTICS removed = ROW_COUNT;
    stream := target_stream; deleted := removed; id := boundary.id; version := boundary.version;
    name := boundary.name; before := window_before;
    RETURN NEXT;
  END LOOP;
END $$;
COMMENT ON FUNCTION act.truncate(jsonb) IS
  'Closes streams (tombstone), compacts them to a snapshot, or drops events before a retention window';

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
COMMENT ON FUNCTION act.query_stats(jsonb, jsonb) IS
  'Per-stream head (and tail, count, names by event) of the streams that have qualifying events';

-- Draining in one call.
CREATE FUNCTION act.claim_events(from_lagging int, from_leading int, by text, millis int, lane text DEFAULT NULL,
                                 max_events int DEFAULT 100, acks jsonb DEFAULT NULL)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text, events jsonb)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
AS 'MODULE_PATHNAME', 'act_claim_events';
COMMENT ON FUNCTION act.claim_events(int, int, text, int, text, int, jsonb) IS
  'A drain cycle in one call: applies acks as act.ack, claims as act.claim, and hands each claimed stream its events after at';

REVOKE ALL ON FUNCTION act.claim_events(int, int, text, int, text, int, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.claim_events(int, int, text, int, text, int, jsonb) TO act_worker;

-- The fence's lock tag comes from the library.
CREATE FUNCTION act._fence_lock_tag() RETURNS TABLE(classid oid, objid oid, objsubid int2)
LANGUAGE c IMMUTABLE
AS 'MODULE_PATHNAME', 'act_fence_lock_tag';

CREATE OR REPLACE FUNCTION act.horizon_holders() RETURNS TABLE(pid int, since timestamptz, lowest_id bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF act.mode() = 'concurrent' THEN
    RETURN QUERY SELECT * FROM act._inflight_holders();
    RETURN;
  END IF;
  -- Fenced mode: the transaction holding the commit fence.
  RETURN QUERY
  SELECT l.pid, a.xact_start, NULL::bigint
    FROM pg_locks l JOIN act._fence_lock_tag() t ON l.classid = t.classid AND l.objid = t.objid AND l.objsubid = t.objsubid
    LEFT JOIN pg_stat_activity a ON a.pid = l.pid
   WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
   ORDER BY a.xact_start, l.pid;
END $$;
COMMENT ON FUNCTION act.horizon_holders() IS 'The transactions holding the horizon back';

REVOKE ALL ON FUNCTION act._fence_lock_tag() FROM PUBLIC;

-- Which sources are patterns: decided by the library, for the index too.
CREATE FUNCTION act._is_pattern(source text) RETURNS boolean
LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_is_pattern';

REVOKE ALL ON FUNCTION act._is_pattern(text) FROM PUBLIC;
DROP INDEX act.subscriptions_wide_source_ix;
CREATE INDEX subscriptions_wide_source_ix ON act.subscription_rows (stream)
  WHERE source IS NULL OR act._is_pattern(source);

-- Monitoring.
CREATE INDEX subscriptions_blocked_ix ON act.subscription_rows (stream) WHERE blocked;
CREATE FUNCTION act._pending() RETURNS TABLE(stream text, lane text, at bigint, work_mark bigint, blocked boolean,
  error text, leased_by text, leased_until timestamptz, retry int, priority int, waiting_id bigint, waiting_since timestamptz)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
BEGIN ATOMIC
  WITH candidates AS (
    SELECT r.* FROM act.subscription_rows r WHERE NOT r.blocked AND r.at < r.correlated_at
    UNION
    SELECT r.* FROM act.subscription_rows r WHERE r.blocked
    UNION
    SELECT r.* FROM act.subscription_rows r
     WHERE (r.source IS NULL OR act._is_pattern(r.source))
       AND r.at < (SELECT max(m.mark) FROM act.wide_marks m WHERE m.stream = r.stream)
  ), marked AS (
    SELECT c.*, greatest(c.correlated_at, (SELECT max(m.mark) FROM act.wide_marks m WHERE m.stream = c.stream)) AS mark,
           c.source IS NOT NULL AND NOT act._is_pattern(c.source) AS literal
      FROM candidates c
  ), waiting AS (
    SELECT m.*,
           CASE WHEN m.literal THEN
             (SELECT e.id FROM act.events e
               WHERE e.stream = m.source
                 AND e.version >= coalesce((SELECT p.version + 1 FROM act.events p WHERE p.id = m.at AND p.stream = m.source), 0)
                 AND e.id > m.at
               ORDER BY e.version LIMIT 1)
           ELSE (SELECT e.id FROM act.events e WHERE e.id > m.at ORDER BY e.id LIMIT 1) END AS waiting_id
      FROM marked m
  )
  SELECT w.stream, w.lane, w.at, w.mark, w.blocked, w.error, w.leased_by, w.leased_until, w.retry, w.priority,
         w.waiting_id, (SELECT e.created FROM act.events e WHERE e.id = w.waiting_id)
    FROM waiting w
   WHERE w.blocked OR w.at < w.mark;
END;

CREATE FUNCTION act.lag(lane text DEFAULT NULL, max_rows int DEFAULT 20)
RETURNS TABLE(stream text, lane_name text, at bigint, work_mark bigint, waiting_id bigint, waiting_since timestamptz,
              age interval, blocked boolean, error text, leased_by text, leased_until timestamptz, retry int)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_column
BEGIN
  IF max_rows IS NULL OR max_rows < 1 THEN
    RAISE EXCEPTION 'max_rows must be 1 or more, not %', coalesce(max_rows::text, 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN QUERY
  SELECT p.stream, p.lane, p.at, p.work_mark, p.waiting_id, p.waiting_since, clock_timestamp() - p.waiting_since,
         p.blocked, p.error, p.leased_by, p.leased_until, p.retry
    FROM act._pending() p
   WHERE lag.lane IS NULL OR p.lane = lag.lane
   ORDER BY p.waiting_since NULLS LAST, p.stream COLLATE "C"
   LIMIT max_rows;
END $$;
COMMENT ON FUNCTION act.lag(text, int) IS
  'The subscriptions with work (and blocked ones), the one whose oldest waiting event is oldest first';

CREATE FUNCTION act.status()
RETURNS TABLE(mode text, horizon bigint, max_event_id bigint, sealed_size bigint, subscriptions bigint,
              with_work bigint, blocked bigint, leased bigint, expired_leases bigint, oldest_work_age interval,
              horizon_held_for interval)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH pending AS MATERIALIZED (SELECT * FROM act._pending())
  SELECT act.mode(), act.horizon(), act.max_event_id(), NULL::bigint,
         (SELECT count(*) FROM act.subscription_rows),
         (SELECT count(*) FROM pending p WHERE NOT p.blocked),
         (SELECT count(*) FROM pending p WHERE p.blocked),
         (SELECT count(*) FROM pending p WHERE p.leased_until > clock_timestamp()),
         (SELECT count(*) FROM pending p WHERE p.leased_by IS NOT NULL AND p.leased_until <= clock_timestamp()),
         (SELECT clock_timestamp() - min(p.waiting_since) FROM pending p WHERE NOT p.blocked),
         (SELECT clock_timestamp() - min(h.since) FROM act.horizon_holders() h);
END $$;
COMMENT ON FUNCTION act.status() IS
  'One row: mode, horizon, log head, subscriptions with work, blocked, leased, expired leases, oldest work, held horizon';

CREATE FUNCTION act.metrics() RETURNS TABLE(metric text, labels jsonb, value double precision)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off AS $$
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
       (SELECT min(h.since) FROM act.horizon_holders() h)), 0)::double precision))
  SELECT t.metric, '{}'::jsonb, t.value FROM totals t
  UNION ALL
  SELECT 'pg_act_subscriptions_' || k.kind, jsonb_build_object('lane', l.lane),
         (SELECT count(*) FROM pending p
           WHERE p.lane = l.lane AND CASE k.kind WHEN 'with_work' THEN NOT p.blocked
                                                 WHEN 'blocked' THEN p.blocked
                                                 ELSE p.leased_until > clock_timestamp() END)::double precision
    FROM (SELECT DISTINCT p.lane FROM pending p) l
   CROSS JOIN (VALUES ('with_work'), ('blocked'), ('leased')) k(kind)
   ORDER BY 1, 2;
END $$;
COMMENT ON FUNCTION act.metrics() IS 'Monitoring figures as (metric, labels, value) rows for a Prometheus exporter';

REVOKE ALL ON FUNCTION act._pending(), act.lag(text, int), act.status(), act.metrics() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.status(), act.lag(text, int), act.metrics() TO act_reader;

-- Personal data.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_pii_reader') THEN CREATE ROLE act_pii_reader NOLOGIN; END IF;
  IF NOT pg_has_role('act_pii_reader', 'act_reader', 'MEMBER') THEN GRANT act_reader TO act_pii_reader; END IF;
END $$;
REVOKE SELECT ON act.events FROM act_reader;
GRANT SELECT (id, stream, version, name, data, meta, created, hash) ON act.events TO act_reader;
GRANT SELECT (pii) ON act.events TO act_pii_reader;
