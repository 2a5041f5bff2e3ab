\echo Use "CREATE EXTENSION pg_act" to load this file. \quit
-- Tables. Only the extension's functions write them (see 90_roles.sql).

-- CACHE 1: concurrent mode relies on every nextval() returning more than the
-- last value any reader saw (docs/concurrency.md).
CREATE SEQUENCE act.events_id_seq AS bigint START 1 CACHE 1;

CREATE TABLE act.events (
  id      bigint PRIMARY KEY DEFAULT nextval('act.events_id_seq'),
  stream  text NOT NULL,
  version int NOT NULL,
  name    text NOT NULL,
  data    jsonb NOT NULL DEFAULT '{}',
  meta    jsonb NOT NULL DEFAULT '{}',
  pii     jsonb,
  created timestamptz NOT NULL DEFAULT now(),
  hash    bytea NOT NULL,
  CONSTRAINT events_stream_version_key UNIQUE (stream, version)
);
ALTER SEQUENCE act.events_id_seq OWNED BY act.events.id;
COMMENT ON TABLE act.events IS 'pg_act: the event log; ids are the global order, versions are 0-based per stream';
-- Few indexes on purpose: each one is paid by every commit.
CREATE INDEX events_snapshot_ix ON act.events (stream, id) WHERE name = '__snapshot__';
CREATE INDEX events_correlation_ix ON act.events ((meta ->> 'correlation'));

-- The recorded predecessor hash of a stream whose head events were removed
-- by a windowed act.truncate: the chain of such a stream verifies against it.
CREATE TABLE act.stream_anchors (
  stream  text PRIMARY KEY,
  version int NOT NULL,
  prev    bytea NOT NULL
);
COMMENT ON TABLE act.stream_anchors IS 'pg_act: hash-chain anchors of streams truncated with a retention window';

-- act.subscriptions (a view, below) over the rows the drain writes.
CREATE TABLE act.subscription_rows (
  stream        text PRIMARY KEY,
  source        text,
  names         text[],
  at            bigint NOT NULL DEFAULT -1,
  retry         int NOT NULL DEFAULT -1,
  blocked       boolean NOT NULL DEFAULT false,
  error         text,
  leased_by     text,
  leased_until  timestamptz,
  priority      int NOT NULL DEFAULT 0,
  lane          text NOT NULL DEFAULT 'default',
  deferred_at   timestamptz,
  correlated_at bigint
) WITH (fillfactor = 70);  -- room for HOT updates: claims and acks rewrite rows all day
COMMENT ON TABLE act.subscription_rows IS 'pg_act: one row per reaction target stream (read act.subscriptions)';
-- The work set: only rows with pending work are in these indexes, so claim
-- costs the same with 1,000 or 1,000,000 subscriptions. One pair serves
-- claims across all lanes, the other claims of one lane.
CREATE INDEX subscriptions_work_priority_ix ON act.subscription_rows (priority DESC, at, stream)
  WHERE NOT blocked AND at < correlated_at;
CREATE INDEX subscriptions_work_at_ix ON act.subscription_rows (at, stream)
  WHERE NOT blocked AND at < correlated_at;
CREATE INDEX subscriptions_work_lane_priority_ix ON act.subscription_rows (lane, priority DESC, at, stream)
  WHERE NOT blocked AND at < correlated_at;
CREATE INDEX subscriptions_work_lane_at_ix ON act.subscription_rows (lane, at, stream)
  WHERE NOT blocked AND at < correlated_at;
-- Static marking at commit: literal sources by lookup; source-less and
-- pattern sources (core IsPattern, the same character class) are few.
CREATE INDEX subscriptions_source_ix ON act.subscription_rows (source) WHERE source IS NOT NULL;
CREATE INDEX subscriptions_wide_source_ix ON act.subscription_rows (stream)
  WHERE source IS NULL OR source ~ '[][^$.*+?(){}|\\]';
-- act.query_streams pages in C collation whatever the database's collation.
CREATE INDEX subscriptions_stream_c_ix ON act.subscription_rows ((stream COLLATE "C"));
-- act.subscribe reports the highest watermark.
CREATE INDEX subscriptions_at_ix ON act.subscription_rows (at);

-- Work marks of wide subscriptions (NULL or pattern source), one row per
-- subscription and committing backend: a commit raises only its backend's
-- row, so commits to different streams never wait on a shared row. Claims
-- fold them into subscription_rows; act.subscriptions shows their maximum.
CREATE TABLE act.wide_marks (
  stream  text NOT NULL,
  backend int NOT NULL,
  mark    bigint NOT NULL,
  PRIMARY KEY (stream, backend)
);
COMMENT ON TABLE act.wide_marks IS 'pg_act: work marks of source-less and pattern subscriptions, per committing backend';

CREATE VIEW act.subscriptions AS
SELECT r.stream, r.source, r.names, r.at, r.retry, r.blocked, r.error, r.leased_by, r.leased_until, r.priority,
       r.lane, r.deferred_at, greatest(r.correlated_at, w.mark) AS correlated_at
  FROM act.subscription_rows r
  LEFT JOIN LATERAL (SELECT max(m.mark) AS mark FROM act.wide_marks m WHERE m.stream = r.stream) w ON true;
COMMENT ON VIEW act.subscriptions IS 'pg_act: one row per reaction target stream: watermark, lease, work mark';

CREATE TABLE act.correlators (
  key          text PRIMARY KEY,
  at           bigint NOT NULL DEFAULT -1,
  leased_by    text,
  leased_until timestamptz
);
COMMENT ON TABLE act.correlators IS 'pg_act: correlate checkpoints and the correlator lease ('''' is the shared row)';
INSERT INTO act.correlators (key) VALUES ('');

-- CREATE EXTENSION inserts the shared row, and pg_restore then copies the
-- dumped one: the second insert of '' updates the first instead of failing.
CREATE FUNCTION act._merge_shared_correlator() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.key = '' THEN
    UPDATE act.correlators c
       SET at = NEW.at, leased_by = NEW.leased_by, leased_until = NEW.leased_until
     WHERE c.key = '';
    IF FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER correlators_merge_shared BEFORE INSERT ON act.correlators
  FOR EACH ROW EXECUTE FUNCTION act._merge_shared_correlator();
-- Writing. act.commit is C++ (extension/commit.cpp).

CREATE FUNCTION act.commit(stream text, events jsonb, meta jsonb DEFAULT '{}', expected_version int DEFAULT NULL)
RETURNS SETOF act.events
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_commit';
COMMENT ON FUNCTION act.commit(text, jsonb, jsonb, int) IS
  'Appends events to a stream atomically under optimistic concurrency (40001 on a version conflict)';

CREATE FUNCTION act.forget_pii(stream text) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  forgotten bigint;
BEGIN
  IF forget_pii.stream IS NULL THEN
    RAISE EXCEPTION 'stream must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  UPDATE act.events e SET pii = NULL WHERE e.stream = forget_pii.stream AND e.pii IS NOT NULL;
  GET DIAGNOSTICS forgotten = ROW_COUNT;
  RETURN forgotten;
END $$;
COMMENT ON FUNCTION act.forget_pii(text) IS 'Erases the pii of every event of a stream; the hash chain stays valid';
-- Reading. act.query is C++ (extension/query.cpp).

CREATE FUNCTION act.query(
  stream text DEFAULT NULL, after bigint DEFAULT NULL, before bigint DEFAULT NULL, names text[] DEFAULT NULL,
  max_events int DEFAULT NULL, backward boolean DEFAULT false, stream_exact boolean DEFAULT true,
  created_after timestamptz DEFAULT NULL, created_before timestamptz DEFAULT NULL, correlation text DEFAULT NULL,
  with_snaps boolean DEFAULT false)
RETURNS SETOF act.events
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_query';
COMMENT ON FUNCTION act.query(text, bigint, bigint, text[], int, boolean, boolean, timestamptz, timestamptz, text, boolean) IS
  'Reads events in id order (or backward) with optional filters; never above act.horizon() except for one exact stream';

CREATE FUNCTION act.version(stream text) RETURNS int
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT coalesce((SELECT e.version FROM act.events e WHERE e.stream = version.stream
                    ORDER BY e.version DESC LIMIT 1), -1);
END;
COMMENT ON FUNCTION act.version(text) IS 'The last version of a stream, -1 when it has no events';

CREATE FUNCTION act.max_event_id() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT coalesce((SELECT e.id FROM act.events e ORDER BY e.id DESC LIMIT 1), -1);
END;
COMMENT ON FUNCTION act.max_event_id() IS 'The highest event id present (snapshots included), -1 when none';

-- The horizon, act.wait and the mode are C++ (extension/horizon.cpp).
CREATE FUNCTION act.horizon() RETURNS bigint
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_horizon';
COMMENT ON FUNCTION act.horizon() IS
  'The highest id H such that every event with id <= H that will ever be visible is visible now';

CREATE FUNCTION act.mode() RETURNS text
LANGUAGE c STABLE
AS 'MODULE_PATHNAME', 'act_mode';
COMMENT ON FUNCTION act.mode() IS
  '''fenced'' (commits pass one fence) or ''concurrent'' (preloaded: commits in parallel behind the in-flight horizon)';

CREATE FUNCTION act._inflight_holders() RETURNS TABLE(pid int, since timestamptz, lowest_id bigint)
LANGUAGE c VOLATILE
AS 'MODULE_PATHNAME', 'act_inflight_holders';

CREATE FUNCTION act._publish_inflight() RETURNS void
LANGUAGE c VOLATILE
AS 'MODULE_PATHNAME', 'act_publish_inflight';

CREATE FUNCTION act.horizon_holders() RETURNS TABLE(pid int, since timestamptz, lowest_id bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF act.mode() = 'concurrent' THEN
    RETURN QUERY SELECT * FROM act._inflight_holders();
    RETURN;
  END IF;
  -- Fenced mode: the transaction holding the commit fence.
  RETURN QUERY
  SELECT l.pid, a.xact_start, NULL::bigint
    FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
   WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND l.classid = 1633907745 AND l.objid = 1 AND l.objsubid = 2
   ORDER BY a.xact_start, l.pid;
END $$;
COMMENT ON FUNCTION act.horizon_holders() IS 'The transactions holding the horizon back';

CREATE FUNCTION act.wait(after bigint, timeout_ms int) RETURNS bigint
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_wait';
COMMENT ON FUNCTION act.wait(bigint, int) IS
  'Waits until act.horizon() passes after, or the timeout; returns the horizon (woken through shared memory in concurrent mode)';

DO $$
BEGIN
  IF act.mode() = 'fenced' THEN
    RAISE NOTICE 'pg_act runs in fenced mode: commits pass one fence. Add pg_act to shared_preload_libraries for concurrent commits.';
  END IF;
END $$;
-- act.truncate(targets): close or compact streams (reference §2.16).

CREATE FUNCTION act._require_object(value jsonb, what text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NOT NULL AND jsonb_typeof(value) <> 'object' THEN
    RAISE EXCEPTION '% must be a JSON object, not %', what, jsonb_typeof(value) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value;
END $$;

CREATE FUNCTION act._require_stream(value jsonb, what text) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) <> 'string' THEN
    RAISE EXCEPTION '% must be a stream name (a JSON string)', what USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF octet_length(value #>> '{}') = 0 OR octet_length(value #>> '{}') > 1000 THEN
    RAISE EXCEPTION '% must be 1 to 1000 bytes long', what USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value #>> '{}';
END $$;

-- Under a transaction snapshot, refuses (40001) to truncate a stream whose
-- latest head this transaction cannot see.
CREATE FUNCTION act._require_latest_head(stream text) RETURNS void
LANGUAGE c VOLATILE STRICT
AS 'MODULE_PATHNAME', 'act_require_latest_head';

CREATE FUNCTION act.truncate(targets jsonb)
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
    END IF;
    position := position + 1;
  END LOOP;

  -- The same fence as act.commit in fenced mode (ids stay visible in id
  -- order); in concurrent mode, publish the in-flight bound before taking ids.
  IF act.mode() = 'fenced' THEN
    PERFORM pg_advisory_xact_lock(1633907745, 1);
  ELSE
    PERFORM act._publish_inflight();
  END IF;

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
-- act.query_stats(streams, options): per-stream head/tail/count/names (reference §2.15).

-- STABLE: timestamptz renders in the session's time zone.
CREATE FUNCTION act._event_json(e act.events) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
RETURN jsonb_build_object('id', e.id, 'stream', e.stream, 'version', e.version, 'name', e.name,
                          'data', e.data, 'meta', e.meta, 'created', e.created);

CREATE FUNCTION act.query_stats(streams jsonb DEFAULT '{}', options jsonb DEFAULT '{}')
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
  max_streams int;
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
    IF streams ? 'stream' AND jsonb_typeof(streams -> 'stream') NOT IN ('string', 'null') THEN
      RAISE EXCEPTION 'streams.stream must be a string' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF streams ? 'stream_exact' AND jsonb_typeof(streams -> 'stream_exact') NOT IN ('boolean', 'null') THEN
      RAISE EXCEPTION 'streams.stream_exact must be a boolean' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    pattern := streams ->> 'stream';
    exact := coalesce((streams ->> 'stream_exact')::boolean, true);
  END IF;
  BEGIN
    want_tail := coalesce((options ->> 'tail')::boolean, false);
    want_count := coalesce((options ->> 'count')::boolean, false);
    want_names := coalesce((options ->> 'names')::boolean, false);
    before_id := (options ->> 'before')::bigint;
    max_streams := (options ->> 'limit')::int;
  EXCEPTION WHEN invalid_text_representation OR numeric_value_out_of_range THEN
    RAISE EXCEPTION 'options: tail, count and names must be booleans, before and limit numbers (%)', SQLERRM
      USING ERRCODE = 'invalid_parameter_value';
  END;
  IF options ? 'after' AND jsonb_typeof(options -> 'after') NOT IN ('string', 'null') THEN
    RAISE EXCEPTION 'options.after must be a stream name' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  after_stream := options ->> 'after';
  IF options ? 'exclude' AND jsonb_typeof(options -> 'exclude') NOT IN ('array', 'null') THEN
    RAISE EXCEPTION 'options.exclude must be an array of event names' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  excluded := ARRAY(SELECT jsonb_array_elements_text(coalesce(nullif(options -> 'exclude', 'null'), '[]')));
  IF max_streams IS NOT NULL AND max_streams < 0 THEN
    RAISE EXCEPTION 'options.limit must be 0 or more' USING ERRCODE = 'invalid_parameter_value';
  END IF;

  RETURN QUERY
  WITH filtered AS MATERIALIZED (
    SELECT e.* FROM act.events e
     WHERE (stream_list IS NULL OR e.stream = ANY (stream_list))
       AND (pattern IS NULL OR (exact AND e.stream = pattern) OR (NOT exact AND e.stream ~ pattern))
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
-- The hash chain (docs/hash-chain.md). act.event_hash is C++ (extension/event_hash.cpp).

CREATE FUNCTION act.event_hash(prev bytea, stream text, version int, name text, data jsonb, meta jsonb,
                               created timestamptz) RETURNS bytea
LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_event_hash';
COMMENT ON FUNCTION act.event_hash(bytea, text, int, text, jsonb, jsonb, timestamptz) IS
  'SHA-256(prev || encoding v1 of the event): the step of the per-stream hash chain';

-- Recomputes each event's hash from the stored hash before it (so one edit
-- reports one position) and checks that versions are contiguous and that a
-- stream starts at version 0 or at its recorded anchor.
CREATE FUNCTION act.verify(stream text DEFAULT NULL)
RETURNS TABLE(stream text, events bigint, valid boolean, first_bad_version int)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  -- Two gated branches, so checking one stream reads only its events.
  WITH scope AS (
    SELECT e.* FROM act.events e WHERE verify.stream IS NULL
    UNION ALL
    SELECT e.* FROM act.events e WHERE e.stream = verify.stream
  ), chained AS (
    SELECT e.stream, e.version, e.hash,
           lag(e.version) OVER w AS prev_version,
           CASE
             WHEN lag(e.version) OVER w IS NOT NULL THEN lag(e.hash) OVER w
             WHEN e.version = 0 THEN '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
             ELSE (SELECT a.prev FROM act.stream_anchors a WHERE a.stream = e.stream AND a.version = e.version)
           END AS prev,
           e.name, e.data, e.meta, e.created
      FROM scope e
    WINDOW w AS (PARTITION BY e.stream ORDER BY e.version)
  ), checked AS (
    SELECT c.stream, c.version,
           CASE
             WHEN c.prev IS NULL OR length(c.prev) <> 32 THEN false
             WHEN c.prev_version IS NOT NULL AND c.version <> c.prev_version + 1 THEN false
             ELSE c.hash = act.event_hash(c.prev, c.stream, c.version, c.name, c.data, c.meta, c.created)
           END AS ok
      FROM chained c
  )
  SELECT k.stream, count(*), bool_and(k.ok), min(k.version) FILTER (WHERE NOT k.ok)
    FROM checked k
   GROUP BY k.stream
   ORDER BY k.stream COLLATE "C";
END;
COMMENT ON FUNCTION act.verify(text) IS
  'Recomputes the hash chain of one stream (or all): the first version whose stored hash disagrees, NULL when valid';
-- Subscriptions and the drain (SQL-API.md). All C++: extension/subscribe.cpp,
-- claim.cpp, leases.cpp, stream_admin.cpp.

CREATE FUNCTION act.subscribe(subscriptions jsonb, correlated_at bigint DEFAULT NULL, correlator jsonb DEFAULT NULL)
RETURNS TABLE(subscribed int, watermark bigint, correlated_at bigint, correlating boolean)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_subscribe';
COMMENT ON FUNCTION act.subscribe(jsonb, bigint, jsonb) IS
  'Registers or merges reaction targets (new ones back-filled), advances the correlate checkpoint, leases the correlator';

-- enable_seqscan = off: on a small table the planner would scan it whole to
-- lock and lease ten rows, and its cost would grow with the table; claim's
-- plan stays on the work-set and primary-key indexes at every size.
CREATE FUNCTION act.claim(from_lagging int, from_leading int, by text, millis int, lane text DEFAULT NULL)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
AS 'MODULE_PATHNAME', 'act_claim';
COMMENT ON FUNCTION act.claim(int, int, text, int, text) IS
  'Leases up to from_lagging + from_leading streams with work to `by` for `millis` ms, skipping rows others hold';

CREATE FUNCTION act.ack(leases jsonb)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_ack';
COMMENT ON FUNCTION act.ack(jsonb) IS
  'Sets watermarks and releases leases still held by their `by` (a `due` entry also defers the stream)';

CREATE FUNCTION act.block(leases jsonb)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, error text, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_block';
COMMENT ON FUNCTION act.block(jsonb) IS 'Blocks streams whose lease is still held by `by`, recording the error';

CREATE FUNCTION act.defer(selector jsonb, until timestamptz) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_defer';
COMMENT ON FUNCTION act.defer(jsonb, timestamptz) IS 'Makes the selected streams unclaimable until a time';

CREATE FUNCTION act.reset(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_reset';
COMMENT ON FUNCTION act.reset(jsonb) IS 'Rewinds the selected streams to replay from the start (work marks kept)';

CREATE FUNCTION act.unblock(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_unblock';
COMMENT ON FUNCTION act.unblock(jsonb) IS 'Unblocks the selected blocked streams; they resume at their watermark';

CREATE FUNCTION act.prioritize(selector jsonb, priority int) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_prioritize';
COMMENT ON FUNCTION act.prioritize(jsonb, int) IS 'Sets the priority of the selected streams';

CREATE FUNCTION act.query_streams(filter jsonb DEFAULT '{}', after text DEFAULT NULL, max_streams int DEFAULT 100)
RETURNS SETOF act.subscriptions
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_query_streams';
COMMENT ON FUNCTION act.query_streams(jsonb, text, int) IS
  'Subscription rows ordered by stream (C collation), keyset-paginated by `after`';
-- Roles, grants and pg_dump registration.

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_reader') THEN CREATE ROLE act_reader NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_writer') THEN CREATE ROLE act_writer NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_worker') THEN CREATE ROLE act_worker NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_admin') THEN CREATE ROLE act_admin NOLOGIN; END IF;
  -- Each role includes the one before it.
  IF NOT pg_has_role('act_writer', 'act_reader', 'MEMBER') THEN GRANT act_reader TO act_writer; END IF;
  IF NOT pg_has_role('act_worker', 'act_writer', 'MEMBER') THEN GRANT act_writer TO act_worker; END IF;
  IF NOT pg_has_role('act_admin', 'act_worker', 'MEMBER') THEN GRANT act_worker TO act_admin; END IF;
END $$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA act FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA act FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA act FROM PUBLIC;
GRANT USAGE ON SCHEMA act TO act_reader;
-- Reading the tables directly is allowed; writing them is not (append-only).
GRANT SELECT ON act.events, act.subscriptions, act.subscription_rows, act.wide_marks, act.correlators, act.stream_anchors
  TO act_reader;

GRANT EXECUTE ON FUNCTION
  act.query(text, bigint, bigint, text[], int, boolean, boolean, timestamptz, timestamptz, text, boolean),
  act.version(text), act.max_event_id(), act.horizon(), act.wait(bigint, int), act.mode(),
  act.horizon_holders(), act.query_stats(jsonb, jsonb), act.verify(text),
  act.event_hash(bytea, text, int, text, jsonb, jsonb, timestamptz), act.query_streams(jsonb, text, int)
  TO act_reader;
GRANT EXECUTE ON FUNCTION act.commit(text, jsonb, jsonb, int), act.forget_pii(text) TO act_writer;
GRANT EXECUTE ON FUNCTION act.subscribe(jsonb, bigint, jsonb), act.claim(int, int, text, int, text), act.ack(jsonb),
  act.block(jsonb) TO act_worker;
GRANT EXECUTE ON FUNCTION act.truncate(jsonb), act.defer(jsonb, timestamptz), act.reset(jsonb), act.unblock(jsonb),
  act.prioritize(jsonb, int) TO act_admin;

SELECT pg_catalog.pg_extension_config_dump('act.events', '');
SELECT pg_catalog.pg_extension_config_dump('act.events_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('act.stream_anchors', '');
SELECT pg_catalog.pg_extension_config_dump('act.subscription_rows', '');
SELECT pg_catalog.pg_extension_config_dump('act.wide_marks', '');
SELECT pg_catalog.pg_extension_config_dump('act.correlators', '');
