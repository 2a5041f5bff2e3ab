-- pg_act router: the SQL contract over a partitioned deployment (docs/scale-out.md).
--
-- Not an extension: a script an operator runs in a router database, a
-- database that holds no events, only functions that forward each call to the
-- partition database that owns it, through PL/Proxy. Each partition is one
-- database running pg_act set up with act.set_partition(N, P); the router
-- reaches them through the SQL/MED server act_cluster, whose options p0 ..
-- p<P-1> are their connect strings, in partition order (P a power of two).
--
-- Before running it, in the router database (an example with four partitions
-- on two nodes):
--
--   CREATE EXTENSION plproxy;
--   CREATE SERVER act_cluster FOREIGN DATA WRAPPER plproxy OPTIONS (
--     connection_lifetime '1800',
--     p0 'host=node-a dbname=act_p0 connect_timeout=5',
--     p1 'host=node-b dbname=act_p1 connect_timeout=5',
--     p2 'host=node-a dbname=act_p2 connect_timeout=5',
--     p3 'host=node-b dbname=act_p3 connect_timeout=5');
--   -- The role the router connects to the partitions as; there it needs the
--   -- pg_act role of the calls it forwards (act_admin for all of them).
--   CREATE USER MAPPING FOR PUBLIC SERVER act_cluster OPTIONS (user 'act_router', password '...');
--
-- then:  psql -v ON_ERROR_STOP=1 -d router -f pg_act_router.sql
--
-- It creates the schema act (a run again drops and recreates it: the router
-- keeps no data) and the role act_router_user, which may call everything
-- here; grant it to the roles of the applications. Which of the calls a caller
-- may make is decided by the partitions, for the role its user mapping names:
-- one PUBLIC mapping to an act_admin role lets every act_router_user do
-- everything; a mapping per application role narrows it.
--
-- What goes through:
--   single-stream calls, forwarded to the stream's partition: act.commit,
--     act.commit_by_key, act.query (one stream by exact name), act.version,
--     act.verify (NULL: every partition, one after the other), act.forget_pii,
--     act.truncate and act.query_stats (named streams, one call per partition);
--   per-partition calls, the partition first: act.claim_p, act.claim_events_p,
--     act.ack_p, act.block_p, act.wait_p, act.horizon_p, act.max_event_id_p,
--     act.query_p, act.query_streams_p, act.query_stats_p, act.verify_p,
--     act.subscribe_p, act.truncate_p, act.defer_p / reset_p / unblock_p /
--     prioritize_p and act.status_p, act.lag_p, act.metrics_p;
--   loops over partitions: act.subscribe, act.defer, act.reset, act.unblock,
--     act.prioritize (each partition applied on its own, a failing one named
--     after the others were applied; all of them idempotent, so a retry is
--     safe);
--   monitoring over every partition, a partition that cannot be reached
--     reported, not raised: act.partitions(), act.status_by_partition(),
--     act.lag_by_partition() and act.metrics() (the contract's, each sample
--     labelled with its partition, plus pg_act_partition_up).
-- Every forwarded call is its own transaction on its partition, committed
-- when it returns, whatever the caller's transaction does afterwards; a call
-- that spans partitions is not atomic across them. Errors keep their SQLSTATE
-- (40001 stays 40001); their message gains PL/Proxy's prefix naming the
-- partition database, so match on the SQLSTATE.

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'plproxy') THEN
    RAISE EXCEPTION 'pg_act router: run CREATE EXTENSION plproxy in this database first';
  END IF;
  IF EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_act') THEN
    RAISE EXCEPTION 'pg_act router: this database has the pg_act extension; the router goes in a database of its own';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw
                  WHERE s.srvname = 'act_cluster' AND w.fdwname = 'plproxy') THEN
    RAISE EXCEPTION 'pg_act router: create the server act_cluster (FOREIGN DATA WRAPPER plproxy, options p0 .. p<P-1>) first';
  END IF;
END $$;

BEGIN;
DROP SCHEMA IF EXISTS act CASCADE;
CREATE SCHEMA act;
COMMENT ON SCHEMA act IS 'pg_act router: the SQL contract forwarded to partition databases through PL/Proxy';

-- The rows the forwarded functions return, with the columns of the tables
-- and view of the same names in pg_act.
CREATE TYPE act.events AS (
  id      bigint,
  stream  text,
  version int,
  name    text,
  data    jsonb,
  meta    jsonb,
  pii     jsonb,
  created timestamptz,
  hash    bytea
);
CREATE TYPE act.subscriptions AS (
  stream        text,
  source        text,
  names         text[],
  at            bigint,
  retry         int,
  blocked       boolean,
  error         text,
  leased_by     text,
  leased_until  timestamptz,
  priority      int,
  lane          text,
  deferred_at   timestamptz,
  correlated_at bigint
);
-- The rows of pg_act's monitoring calls act.status(), act.lag() and act.metrics().
CREATE TYPE act.status_row AS (
  mode             text,
  horizon          bigint,
  max_event_id     bigint,
  sealed_size      bigint,
  subscriptions    bigint,
  with_work        bigint,
  blocked          bigint,
  leased           bigint,
  expired_leases   bigint,
  oldest_work_age  interval,
  horizon_held_for interval,
  seal_stopped     text
);
CREATE TYPE act.lag_row AS (
  stream        text,
  lane_name     text,
  at            bigint,
  work_mark     bigint,
  waiting_id    bigint,
  waiting_since timestamptz,
  age           interval,
  blocked       boolean,
  error         text,
  leased_by     text,
  leased_until  timestamptz,
  retry         int
);
CREATE TYPE act.metric_row AS (
  metric text,
  labels jsonb,
  value  double precision
);

-- Partitions

-- The partition count: how many options p0, p1, ... the server act_cluster has.
-- PL/pgSQL, not SQL: its plan is kept for the session, where an SQL
-- function called from another function is planned again at every call.
CREATE FUNCTION act.router_partitions() RETURNS int
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN (SELECT count(*)::int FROM pg_foreign_server s, unnest(s.srvoptions) AS o
           WHERE s.srvname = 'act_cluster' AND o ~ '^p[0-9]+=');
END $$;
COMMENT ON FUNCTION act.router_partitions() IS 'The partition count: the options p0 .. p<P-1> of the server act_cluster';

-- As pg_act's act.partition_of: the first four bytes of SHA-256 of the
-- stream's UTF-8 bytes, big-endian, masked by the partition count (NULL:
-- the router's).
CREATE FUNCTION act.partition_of(stream text, partitions int DEFAULT NULL) RETURNS int
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  count int := coalesce(partitions, act.router_partitions());
  digest bytea;
BEGIN
  IF stream IS NULL THEN
    RAISE EXCEPTION 'stream must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF count < 1 OR count > 65536 OR count & (count - 1) <> 0 THEN
    RAISE EXCEPTION 'partitions must be a power of two from 1 to 65536, not %', count
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  digest := sha256(convert_to(stream, 'UTF8'));
  RETURN ((get_byte(digest, 0)::bigint << 24 | get_byte(digest, 1) << 16 | get_byte(digest, 2) << 8
           | get_byte(digest, 3)) & (count - 1))::int;
END $$;
COMMENT ON FUNCTION act.partition_of(text, int) IS
  'The stream''s partition: SHA-256 of its UTF-8 bytes, the first four bytes big-endian, masked by the partition count';

-- The partition a per-partition call names, refused when there is no such one
-- (PL/Proxy alone would mask it into range and call the wrong partition).
CREATE FUNCTION act._partition(partition int) RETURNS int
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  count int := act.router_partitions();
BEGIN
  IF partition IS NULL OR partition < 0 OR partition >= count THEN
    RAISE EXCEPTION 'partition must be from 0 to %, not %', count - 1, coalesce(partition::text, 'null')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN partition;
END $$;

-- Where a single-stream call goes: the first four bytes of SHA-256 of the
-- stream, which PL/Proxy masks by the partition count (hash & (P - 1)), so
-- the stream's partition as act.partition_of gives it. A NULL stream goes to
-- partition 0, whose pg_act answers with the contract's own error. Every
-- name is qualified instead of SET search_path, which would keep the body
-- from being inlined into PL/Proxy's routing query: this runs on every call.
CREATE FUNCTION act._stream_partition(stream text) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN stream IS NULL THEN 0
            ELSE CAST(CAST('x' OPERATOR(pg_catalog.||)
                           pg_catalog.encode(pg_catalog.substring(pg_catalog.sha256(pg_catalog.convert_to(stream, 'UTF8')), 1, 4), 'hex')
                      AS pg_catalog.bit(32)) AS pg_catalog.int4) END;

-- When `refused`: 22023, the call needs a partition, which `instead` takes.
CREATE FUNCTION act._refuse_fan_out(refused boolean, call text, reason text, instead text) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF refused IS NOT TRUE THEN
    RETURN;
  END IF;
  RAISE EXCEPTION '% through the router %', call, reason USING ERRCODE = 'invalid_parameter_value',
    HINT = format('Every partition has its own log: use %s on each partition (0 to %s).', instead,
                  act.router_partitions() - 1);
END $$;

-- act.query through the router reads one stream by exact name.
CREATE FUNCTION act._query_partition(stream text, stream_exact boolean) RETURNS int
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM act._refuse_fan_out(stream IS NULL OR stream_exact IS DISTINCT FROM true, 'act.query',
                              'reads one stream by exact name, not a pattern or every stream',
                              'act.query_p(partition, ...)');
  RETURN act.partition_of(stream);
END $$;

-- A consistency boundary lives on one partition (docs/scale-out.md):
-- act.read goes to the partition of its query's first item's first tag,
-- act.append to that of its first event's stream. That partition's pg_act
-- refuses (22023) a query item or an event that is not its own; a query or
-- event list without one goes to partition 0, which answers with the
-- contract's own error.
CREATE FUNCTION act._boundary_partition(query jsonb) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN act._stream_partition(query OPERATOR(pg_catalog.->) 'items' OPERATOR(pg_catalog.->) 0
                             OPERATOR(pg_catalog.->) 'tags' OPERATOR(pg_catalog.->>) 0);

CREATE FUNCTION act._append_partition(events jsonb) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN act._stream_partition(events OPERATOR(pg_catalog.->) 0 OPERATOR(pg_catalog.->>) 'stream');

-- act.verify's partitions: the stream's, or all of them for NULL.
CREATE FUNCTION act._partitions_for(stream text) RETURNS SETOF int
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT act.partition_of($1) WHERE $1 IS NOT NULL
  UNION ALL
  SELECT p FROM generate_series(0, act.router_partitions() - 1) AS p WHERE $1 IS NULL
$$;

-- Single-stream calls: to the stream's partition. The arguments and the
-- result of each are its declaration's in pg_act (sql/api/), written here by
-- scripts/build-router.sh (make router).

-- forward: api/commit.sql RUN ON act._stream_partition(stream)
CREATE FUNCTION act.commit(stream text, events jsonb, meta jsonb DEFAULT '{}', expected_version bigint DEFAULT NULL)
RETURNS SETOF act.events LANGUAGE plproxy AS $$
  CLUSTER 'act_cluster';
  RUN ON act._stream_partition(stream);
$$;
-- end forward

-- forward: api/commit_by_key.sql RUN ON act._stream_partition(stream)
CREATE FUNCTION act.commit_by_key(stream text, idempotency_key text)
RETURNS SETOF act.events LANGUAGE plproxy AS $$
  CLUSTER 'act_cluster';
  RUN ON act._stream_partition(stream);
$$;
-- end forward

-- forward: api/read.sql RUN ON act._boundary_partition(query)
CREATE FUNCTION act.read(query jsonb, after bigint DEFAULT -1, "limit" int DEFAULT NULL)
RETURNS TABLE(id bigint, stream text, version int, name text, data jsonb, meta jsonb, created timestamptz, tags text[]) LANGUAGE plproxy AS $$
  CLUSTER 'act_cluster';
  RUN ON act._boundary_partition(query);
$$;
-- end forward

-- forward: api/append.sql RUN ON act._append_partition(events)
CREATE FUNCTION act.append(events jsonb, condition jsonb DEFAULT NULL, meta jsonb DEFAULT '{}')
RETURNS SETOF act.events LANGUAGE plproxy AS $$
  CLUSTER 'act_cluster';
  RUN ON act._append_partition(events);
$$;
-- end forward

-- forward: api/query.sql RUN ON act._query_partition(stream, stream_exact)
CREATE FUNCTION act.query(
  stream text DEFAULT NULL, after bigint DEFAULT NULL, before bigint DEFAULT NULL, names text[] DEFAULT NULL,
  max_events int DEFAULT NULL, backward boolean DEFAULT false, stream_exact boolean DEFAULT true,
  created_after timestamptz DEFAULT NULL, created_before timestamptz DEFAULT NULL, correlation text DEFAULT NULL,
  with_snaps boolean DEFAULT false)
RETURNS SETOF act.events LANGUAGE plproxy AS $$
  CLUSTER 'act_cluster';
  RUN ON act._query_partition(stream, stream_exact);
$$;
-- end forward

-- forward: api/version.sql RUN ON act._stream_partition(stream)
CREATE FUNCTION act.version(stream text)
RETURNS int LANGUAGE plproxy AS $$
  CLUSTER 'act_cluster';
  RUN ON act._stream_partition(stream);
$$;
-- end forward

-- forward: api/forget_pii.sql RUN ON act._stream_partition(stream)
CREATE FUNCTION act.forget_pii(stream text)
RETURNS bigint LANGUAGE plproxy AS $$
  CLUSTER 'act_cluster';
  RUN ON act._stream_partition(stream);
$$;
-- end forward

-- Per-partition calls: act.<name>_p(partition int, <the arguments of pg_act's
-- act.<name>>) calls act.<name> in that partition and returns what it
-- returns, so the partition databases need nothing but pg_act. The arguments
-- and results are pg_act's declarations' (sql/api/), written below by
-- scripts/build-router.sh (make router).
CREATE PROCEDURE pg_temp.forward_p(name text, arguments text, result text)
LANGUAGE plpgsql AS $do$
BEGIN
    EXECUTE format($create$
      CREATE FUNCTION act.%I(partition int%s) RETURNS %s LANGUAGE plproxy AS $proxy$
        CLUSTER 'act_cluster';
        RUN ON act._partition(partition);
        SELECT * FROM act.%I(%s);
      $proxy$$create$,
      name || '_p', CASE WHEN arguments = '' THEN '' ELSE ', ' || arguments END, result, name,
      (SELECT string_agg(substring(btrim(a, E' \n') FROM '^\S+'), ', ')
       FROM unnest(string_to_array(arguments, ',')) AS a));
END $do$;

-- forward per partition: api/query.sql
CALL pg_temp.forward_p('query', $$
  stream text DEFAULT NULL, after bigint DEFAULT NULL, before bigint DEFAULT NULL, names text[] DEFAULT NULL,
  max_events int DEFAULT NULL, backward boolean DEFAULT false, stream_exact boolean DEFAULT true,
  created_after timestamptz DEFAULT NULL, created_before timestamptz DEFAULT NULL, correlation text DEFAULT NULL,
  with_snaps boolean DEFAULT false$$, 'SETOF act.events');
-- end forward
-- forward per partition: api/query_stats.sql
CALL pg_temp.forward_p('query_stats', $$streams jsonb DEFAULT '{}', options jsonb DEFAULT '{}'$$, 'TABLE(stream text, head jsonb, tail jsonb, count bigint, names jsonb)');
-- end forward
-- forward per partition: api/verify.sql
CALL pg_temp.forward_p('verify', $$stream text DEFAULT NULL$$, 'TABLE(stream text, events bigint, valid boolean, first_bad_version int)');
-- end forward
-- forward per partition: api/truncate.sql
CALL pg_temp.forward_p('truncate', $$targets jsonb$$, 'TABLE(stream text, deleted bigint, id bigint, version int, name text, before timestamptz)');
-- end forward
-- forward per partition: api/horizon.sql
CALL pg_temp.forward_p('horizon', $$$$, 'bigint');
-- end forward
-- forward per partition: api/max_event_id.sql
CALL pg_temp.forward_p('max_event_id', $$$$, 'bigint');
-- end forward
-- forward per partition: api/wait.sql
CALL pg_temp.forward_p('wait', $$after bigint, timeout_ms int$$, 'bigint');
-- end forward
-- forward per partition: api/subscribe.sql
CALL pg_temp.forward_p('subscribe', $$subscriptions jsonb, correlated_at bigint DEFAULT NULL, correlator jsonb DEFAULT NULL$$, 'TABLE(subscribed int, watermark bigint, correlated_at bigint, correlating boolean)');
-- end forward
-- forward per partition: api/claim.sql
CALL pg_temp.forward_p('claim', $$from_lagging int, from_leading int, by text, millis int, lane text DEFAULT NULL$$, 'TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text)');
-- end forward
-- forward per partition: api/claim_events.sql
CALL pg_temp.forward_p('claim_events', $$from_lagging int, from_leading int, by text, millis int, lane text DEFAULT NULL,
                                 max_events int DEFAULT 100, acks jsonb DEFAULT NULL, max_bytes int DEFAULT 16777216,
                                 wait_millis int DEFAULT 0$$, 'TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text, events jsonb)');
-- end forward
-- forward per partition: api/ack.sql
CALL pg_temp.forward_p('ack', $$leases jsonb$$, 'TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text)');
-- end forward
-- forward per partition: api/block.sql
CALL pg_temp.forward_p('block', $$leases jsonb$$, 'TABLE(stream text, source text, at bigint, by text, retry int, error text, lagging boolean, lane text)');
-- end forward
-- forward per partition: api/query_streams.sql
CALL pg_temp.forward_p('query_streams', $$filter jsonb DEFAULT '{}', after text DEFAULT NULL, max_streams int DEFAULT 100$$, 'SETOF act.subscriptions');
-- end forward
-- forward per partition: api/defer.sql
CALL pg_temp.forward_p('defer', $$selector jsonb, until timestamptz$$, 'int');
-- end forward
-- forward per partition: api/reset.sql
CALL pg_temp.forward_p('reset', $$selector jsonb$$, 'int');
-- end forward
-- forward per partition: api/unblock.sql
CALL pg_temp.forward_p('unblock', $$selector jsonb$$, 'int');
-- end forward
-- forward per partition: api/prioritize.sql
CALL pg_temp.forward_p('prioritize', $$selector jsonb, priority int$$, 'int');
-- end forward
-- forward per partition: api/status.sql RETURNS SETOF act.status_row
CALL pg_temp.forward_p('status', $$$$, 'SETOF act.status_row');
-- end forward
-- forward per partition: api/lag.sql RETURNS SETOF act.lag_row
CALL pg_temp.forward_p('lag', $$lane text DEFAULT NULL, max_rows int DEFAULT 20$$, 'SETOF act.lag_row');
-- end forward
-- forward per partition: api/metrics.sql RETURNS SETOF act.metric_row
CALL pg_temp.forward_p('metrics', $$$$, 'SETOF act.metric_row');
-- end forward
DROP PROCEDURE pg_temp.forward_p(text, text, text);

-- The horizon and head of one partition in one round trip, for act.partitions().
CREATE FUNCTION act._heads_p(partition int, OUT horizon bigint, OUT max_event_id bigint)
LANGUAGE plproxy AS $$
  CLUSTER 'act_cluster';
  RUN ON act._partition(partition);
  SELECT act.horizon() AS horizon, act.max_event_id() AS max_event_id;
$$;

-- Calls over several partitions.

-- act.verify: one stream in its partition, or (NULL) every stream, partition
-- by partition; a partition that cannot be reached fails the call.
CREATE FUNCTION act.verify(stream text DEFAULT NULL)
RETURNS TABLE(stream text, events bigint, valid boolean, first_bad_version int)
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
  SELECT v.* FROM act._partitions_for($1) AS p, act.verify_p(p, $1) AS v
$$;

-- Runs `call` once per partition that `payloads` names (an object
-- {"<partition>": argument}), in ascending order, with $1 = the partition,
-- $2 = its argument and $3 = `shared`; returns every row as jsonb. Each
-- partition's call commits on its own, so one that fails does not stop the
-- others: after the loop the first failure is raised with its SQLSTATE,
-- naming the partitions that failed and those where the call was applied.
CREATE FUNCTION act._fan_out(what text, call text, payloads jsonb, shared jsonb, retry_hint text) RETURNS SETOF jsonb
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p int;
  row_json jsonb;
  applied int[] := '{}';
  failed int[] := '{}';
  messages text[] := '{}';
  first_state text;
  first_message text;
  state text;
  message text;
BEGIN
  FOR p IN SELECT k::int FROM jsonb_object_keys(payloads) AS k ORDER BY 1 LOOP
    BEGIN
      FOR row_json IN EXECUTE format('SELECT to_jsonb(r) FROM (%s) AS r', call) USING p, payloads -> p::text, shared
      LOOP
        RETURN NEXT row_json;
      END LOOP;
      applied := applied || p;
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
      first_state := coalesce(first_state, state);
      first_message := coalesce(first_message, rtrim(message, E' \n'));
      failed := failed || p;
      messages := messages || format('partition %s: %s', p, rtrim(message, E' \n'));
    END;
  END LOOP;
  IF first_state IS NOT NULL THEN
    message := format('%s failed on partition %s (applied on %s): %s', what, array_to_string(failed, ', '),
                      coalesce(nullif(array_to_string(applied, ', '), ''), 'none'), first_message);
    -- The hint speaks of a partial effect: only when there is one.
    IF cardinality(applied) > 0 AND retry_hint IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = first_state, MESSAGE = message, DETAIL = array_to_string(messages, E'\n'),
        HINT = retry_hint;
    END IF;
    RAISE EXCEPTION USING ERRCODE = first_state, MESSAGE = message, DETAIL = array_to_string(messages, E'\n');
  END IF;
END $$;

-- {"0": null, "1": null, ...}: every partition, for _fan_out.
CREATE FUNCTION act._every_partition() RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
RETURN (SELECT jsonb_object_agg(p, NULL::jsonb) FROM generate_series(0, act.router_partitions() - 1) AS p);

-- The elements of a JSON array grouped by the partition of their stream (the
-- element itself, or its member `key`), in array order: {"<partition>": [...]}.
CREATE FUNCTION act._by_partition(items jsonb, what text, key text) RETURNS jsonb
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  bad bigint;
BEGIN
  IF items IS NULL OR jsonb_typeof(items) <> 'array' THEN
    RAISE EXCEPTION '% must be a JSON array, not %', what, coalesce(jsonb_typeof(items), 'null')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT x.ord - 1 INTO bad FROM jsonb_array_elements(items) WITH ORDINALITY AS x(e, ord)
   WHERE jsonb_typeof(CASE WHEN key IS NULL THEN x.e ELSE x.e -> key END) IS DISTINCT FROM 'string'
   ORDER BY x.ord LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION '%[%] must be %', what, bad,
      CASE WHEN key IS NULL THEN 'a stream name (a JSON string)' ELSE format('an object with a "%s" string', key) END
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN (SELECT coalesce(jsonb_object_agg(g.p, g.entries), '{}')
            FROM (SELECT act.partition_of(CASE WHEN key IS NULL THEN x.e #>> '{}' ELSE x.e ->> key END) AS p,
                         jsonb_agg(x.e ORDER BY x.ord) AS entries
                    FROM jsonb_array_elements(items) WITH ORDINALITY AS x(e, ord)
                   GROUP BY 1) AS g);
END $$;

-- act.truncate: each partition truncates its own targets in one transaction
-- of its own. Not atomic across partitions: when one fails, the others stay
-- truncated (the error names which); repeating the call re-seeds their streams.
CREATE FUNCTION act.truncate(targets jsonb)
RETURNS TABLE(stream text, deleted bigint, id bigint, version int, name text, before timestamptz)
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
  SELECT r.* FROM act._fan_out('act.truncate', 'SELECT * FROM act.truncate_p($1, $2)',
                               act._by_partition($1, 'targets', 'stream'), NULL,
                               'The partitions named as applied are truncated; repeat the call for the others alone.')
                  WITH ORDINALITY AS f(row_json, ord),
                  jsonb_to_record(f.row_json) AS r(stream text, deleted bigint, id bigint, version int, name text,
                                                   before timestamptz)
   ORDER BY f.ord
$$;

-- act.query_stats for named streams: one call per partition, the rows merged
-- in stream order (C collation) and cut at options.limit. A pattern, or every
-- stream, is per partition (act.query_stats_p); so is options.before (an
-- event id) when the streams span partitions.
CREATE FUNCTION act.query_stats(streams jsonb DEFAULT '{}', options jsonb DEFAULT '{}')
RETURNS TABLE(stream text, head jsonb, tail jsonb, count bigint, names jsonb)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  groups jsonb;
  max_streams numeric;
BEGIN
  IF jsonb_typeof($1) = 'object' THEN
    PERFORM act._refuse_fan_out(jsonb_typeof($1 -> 'stream') IS DISTINCT FROM 'string'
                                OR ($1 -> 'stream_exact') IS DISTINCT FROM 'true', 'act.query_stats', 'takes stream names, not a pattern or every stream',
                                'act.query_stats_p(partition, streams, options)');
    groups := jsonb_build_object(act.partition_of($1 ->> 'stream'), $1);
  ELSE
    groups := act._by_partition($1, 'streams', NULL);
  END IF;
  PERFORM act._refuse_fan_out(jsonb_typeof($2) = 'object' AND $2 ? 'before' AND
                              (SELECT count(*) FROM jsonb_object_keys(groups)) > 1,
                              'act.query_stats', 'takes options.before (an event id) only for streams of one partition',
                              'act.query_stats_p(partition, streams, options)');
  IF jsonb_typeof($2 -> 'limit') = 'number' AND ($2 ->> 'limit')::numeric > 0 THEN
    max_streams := ($2 ->> 'limit')::numeric;
  END IF;
  RETURN QUERY
  SELECT r.* FROM act._fan_out('act.query_stats', 'SELECT * FROM act.query_stats_p($1, $2, $3)', groups, $2, NULL) AS f,
                  jsonb_to_record(f) AS r(stream text, head jsonb, tail jsonb, count bigint, names jsonb)
   ORDER BY r.stream COLLATE "C"
   LIMIT max_streams;
END $$;

-- Which pg_act treats as a pattern source (core IsPattern).
CREATE FUNCTION act._is_pattern(source text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog, pg_temp
RETURN length(translate(source, '^$.*+?()[]{}|\', '')) <> length(source);

-- The entries of act.subscribe grouped by partition: {"<partition>": [...]}.
CREATE FUNCTION act._subscriptions_by_partition(subscriptions jsonb, checkpoint bigint, correlator jsonb) RETURNS jsonb
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM act._refuse_fan_out(checkpoint IS NOT NULL OR correlator IS NOT NULL, 'act.subscribe',
                              'takes no correlate checkpoint or correlator: each partition has its own',
                              'act.subscribe_p(partition, subscriptions, correlated_at, correlator)');
  IF subscriptions IS NULL OR jsonb_typeof(subscriptions) <> 'array' THEN
    RETURN jsonb_build_object('0', subscriptions);  -- partition 0 answers with the contract's error
  END IF;
  RETURN (SELECT coalesce(jsonb_object_agg(g.p, g.entries), '{}')
            FROM (SELECT t.p, jsonb_agg(x.e ORDER BY x.ord) AS entries
                    FROM jsonb_array_elements(subscriptions) WITH ORDINALITY AS x(e, ord),
                         LATERAL (SELECT act.partition_of(x.e ->> 'source')
                                   WHERE jsonb_typeof(x.e -> 'source') = 'string'
                                     AND NOT act._is_pattern(x.e ->> 'source')
                                  UNION ALL
                                  SELECT q FROM generate_series(0, act.router_partitions() - 1) AS q
                                   WHERE jsonb_typeof(x.e -> 'source') IS DISTINCT FROM 'string'
                                      OR act._is_pattern(x.e ->> 'source')) AS t(p)
                   GROUP BY t.p) AS g);
END $$;

-- act.subscribe: an entry with a literal source is registered in its
-- source's partition; one without a source or with a pattern in every
-- partition (a row per partition, each following that partition's log).
-- Each partition merges its entries in one call of its own; merging is
-- idempotent, so when one fails (the error names it) repeating the call is
-- safe. `subscribed` is summed; `watermark` and `correlated_at` are positions
-- in one partition's log and come back NULL (act.subscribe_p has them). The
-- correlate checkpoint and correlator are per partition: through act.subscribe_p.
CREATE FUNCTION act.subscribe(subscriptions jsonb, correlated_at bigint DEFAULT NULL, correlator jsonb DEFAULT NULL)
RETURNS TABLE(subscribed int, watermark bigint, correlated_at bigint, correlating boolean)
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
  SELECT coalesce(sum((f ->> 'subscribed')::int), 0)::int, NULL::bigint, NULL::bigint, NULL::boolean
    FROM act._fan_out('act.subscribe', 'SELECT * FROM act.subscribe_p($1, nullif($2, ''null''))',
                      act._subscriptions_by_partition($1, $2, $3), NULL, 'Subscribing is idempotent: repeat the call.') AS f
$$;

-- The admin selectors: every partition (a target's rows may be in any),
-- counts summed. Idempotent, so after a failure (the error names the
-- partition; the others were applied) repeating the call is safe.
CREATE FUNCTION act._admin_fan_out(what text, call text, arguments jsonb) RETURNS int
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp
RETURN (SELECT coalesce(sum((f ->> 'n')::int), 0)::int
          FROM act._fan_out(what, call, act._every_partition(), arguments,
                            'The call is idempotent: repeat it once the partition is back.') AS f);

CREATE FUNCTION act.defer(selector jsonb, until timestamptz) RETURNS int
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp
RETURN act._admin_fan_out('act.defer', 'SELECT act.defer_p($1, $3 -> 0, ($3 ->> 1)::timestamptz) AS n',
                          jsonb_build_array(selector, until));

CREATE FUNCTION act.reset(selector jsonb) RETURNS int
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp
RETURN act._admin_fan_out('act.reset', 'SELECT act.reset_p($1, $3 -> 0) AS n', jsonb_build_array(selector));

CREATE FUNCTION act.unblock(selector jsonb) RETURNS int
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp
RETURN act._admin_fan_out('act.unblock', 'SELECT act.unblock_p($1, $3 -> 0) AS n', jsonb_build_array(selector));

CREATE FUNCTION act.prioritize(selector jsonb, priority int) RETURNS int
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp
RETURN act._admin_fan_out('act.prioritize', 'SELECT act.prioritize_p($1, $3 -> 0, ($3 ->> 1)::int) AS n',
                          jsonb_build_array(selector, priority));

-- Monitoring: a dashboard must keep seeing the other partitions when one
-- node is down, so these calls report a partition that cannot be reached
-- instead of failing.

-- Runs `call` on every partition in turn, with $1 = the partition and
-- $2 = `arguments`; returns a row per partition with its rows as a JSON
-- array, or, when the call failed there, NULL and the error. Read-only calls
-- only: a failure is reported, never raised.
CREATE FUNCTION act._each_partition(call text, arguments jsonb DEFAULT NULL)
RETURNS TABLE(partition int, result jsonb, error text)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  p int;
BEGIN
  FOR p IN 0 .. act.router_partitions() - 1 LOOP
    partition := p;
    BEGIN
      EXECUTE format('SELECT coalesce(jsonb_agg(to_jsonb(r)), ''[]'') FROM (%s) AS r', call)
        INTO result USING p, arguments;
      error := NULL;
    EXCEPTION WHEN OTHERS THEN
      result := NULL;
      error := rtrim(SQLERRM, E' \n');
    END;
    RETURN NEXT;
  END LOOP;
END $$;

-- A row per partition: reachable, its horizon and head, or the error.
CREATE FUNCTION act.partitions()
RETURNS TABLE(partition int, reachable boolean, horizon bigint, max_event_id bigint, error text)
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
  SELECT e.partition, e.error IS NULL, h.horizon, h.max_event_id, e.error
    FROM act._each_partition('SELECT * FROM act._heads_p($1)') AS e,
         jsonb_to_record(e.result -> 0) AS h(horizon bigint, max_event_id bigint)
   ORDER BY e.partition
$$;

-- pg_act's act.status() of every partition, a row each; the figures are
-- NULL for a partition that cannot be reached.
CREATE FUNCTION act.status_by_partition()
RETURNS TABLE(partition int, reachable boolean, error text, mode text, horizon bigint, max_event_id bigint,
              sealed_size bigint, subscriptions bigint, with_work bigint, blocked bigint, leased bigint,
              expired_leases bigint, oldest_work_age interval, horizon_held_for interval, seal_stopped text)
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
  SELECT e.partition, e.error IS NULL, e.error, s.*
    FROM act._each_partition('SELECT * FROM act.status_p($1)') AS e,
         jsonb_populate_record(NULL::act.status_row, e.result -> 0) AS s
   ORDER BY e.partition
$$;

-- pg_act's act.lag() over every partition: each partition's first max_rows
-- merged in act.lag's order (the oldest waiting event first), max_rows in
-- all. A partition where the call fails (its node down) has no rows, each
-- row being a subscription; a WARNING names it, its error in the detail.
CREATE FUNCTION act.lag_by_partition(lane text DEFAULT NULL, max_rows int DEFAULT 20)
RETURNS TABLE(partition int, stream text, lane_name text, at bigint, work_mark bigint, waiting_id bigint,
              waiting_since timestamptz, age interval, blocked boolean, error text, leased_by text,
              leased_until timestamptz, retry int)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  reached jsonb;
  missing record;
BEGIN
  -- Checked here: every partition refusing it would read as every partition unreachable.
  IF max_rows IS NULL OR max_rows < 1 THEN
    RAISE EXCEPTION 'max_rows must be 1 or more, not %', coalesce(max_rows::text, 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT jsonb_agg(to_jsonb(e)) INTO reached
    FROM act._each_partition('SELECT * FROM act.lag_p($1, $2 ->> 0, ($2 ->> 1)::int)',
                             jsonb_build_array(lane, max_rows)) AS e;
  SELECT string_agg(e.partition::text, ', ' ORDER BY e.partition) AS partitions,
         string_agg(format('partition %s: %s', e.partition, e.error), E'\n' ORDER BY e.partition) AS errors
    INTO missing
    FROM jsonb_to_recordset(reached) AS e(partition int, error text)
   WHERE e.error IS NOT NULL;
  IF missing.partitions IS NOT NULL THEN
    RAISE WARNING 'act.lag_by_partition: partition % left out, the call failed there', missing.partitions
      USING DETAIL = missing.errors;
  END IF;
  RETURN QUERY
  SELECT e.partition, l.*
    FROM jsonb_to_recordset(reached) AS e(partition int, result jsonb),
         jsonb_populate_recordset(NULL::act.lag_row, e.result) AS l
   ORDER BY l.waiting_since NULLS LAST, e.partition, l.stream COLLATE "C"
   LIMIT max_rows;
END $$;

-- pg_act's act.metrics() over every partition, for one exporter on the
-- router: each partition's samples with the label "partition", and
-- pg_act_partition_up, 1 for a partition that answered and 0 for one that
-- did not, whose samples are then missing.
CREATE FUNCTION act.metrics() RETURNS TABLE(metric text, labels jsonb, value double precision)
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
  WITH reached AS (SELECT * FROM act._each_partition('SELECT * FROM act.metrics_p($1)'))
  SELECT s.metric, s.labels, s.value
    FROM (SELECT m.metric, m.labels || jsonb_build_object('partition', e.partition::text) AS labels, m.value,
                 e.partition
            FROM reached AS e, jsonb_populate_recordset(NULL::act.metric_row, e.result) AS m
          UNION ALL
          SELECT 'pg_act_partition_up', jsonb_build_object('partition', e.partition::text),
                 CASE WHEN e.error IS NULL THEN 1 ELSE 0 END, e.partition
            FROM reached AS e) AS s
   ORDER BY s.metric, s.partition, s.labels
$$;

-- Grants: one role for every caller of the router (what each may do is
-- decided by the partitions, for the role its user mapping connects as).
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_router_user') THEN
    CREATE ROLE act_router_user NOLOGIN;
  END IF;
END $$;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA act FROM PUBLIC;
GRANT USAGE ON SCHEMA act TO act_router_user;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA act TO act_router_user;
GRANT USAGE ON FOREIGN SERVER act_cluster TO act_router_user;

COMMIT;
