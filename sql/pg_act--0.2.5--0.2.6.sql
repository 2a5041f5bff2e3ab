-- pg_act 0.2.5 -> 0.2.6.
-- - Partitioned mode: act.partitioning, act.set_partition, act.partition_of,
--   act.hosted_partition; single-stream calls refuse a stream of another
--   partition once a partition is set (act.forget_pii, act.truncate and
--   act.query_stats are replaced to check it; the C++ functions check it
--   themselves). A database without a partition set behaves as before.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.2.6'" to load this file. \quit

-- Partitioned mode (docs/scale-out.md): each partition of a partitioned
-- deployment is a database of its own; act.set_partition makes this one
-- partition `partition` of `partitions`, after which every call for a
-- stream of another partition is refused (22023). Without a row the
-- database holds every stream (single-partition mode).
CREATE TABLE act.partitioning (
  one_row boolean PRIMARY KEY DEFAULT true CHECK (one_row),
  partition int NOT NULL,
  partitions int NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now()
);
SELECT pg_catalog.pg_extension_config_dump('act.partitioning', '');

-- C++ (extension/partitions/hosted_partition.cpp). Owner's rights: it
-- reads act.partitioning when partitions is NULL.
CREATE FUNCTION act.partition_of(stream text, partitions int DEFAULT NULL) RETURNS int
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_partition_of';
COMMENT ON FUNCTION act.partition_of(text, int) IS
  'The stream''s partition: the first 4 bytes of SHA-256(stream) as a big-endian integer, masked by partitions - 1 (the configured count when NULL)';

CREATE FUNCTION act.set_partition(partition int, partitions int) RETURNS void
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_set_partition';
COMMENT ON FUNCTION act.set_partition(int, int) IS
  'Makes this database partition `partition` of `partitions` (a power of two); refused while it holds a stream of another partition';

CREATE FUNCTION act.hosted_partition() RETURNS TABLE(partition int, partitions int)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.partition, p.partitions FROM act.partitioning p
$$;
COMMENT ON FUNCTION act.hosted_partition() IS 'The partition this database hosts (no row: every stream)';

-- For the SQL-language functions that take a stream (forget_pii, truncate, query_stats).
CREATE FUNCTION act._require_hosted(stream text) RETURNS void
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_require_hosted';

CREATE OR REPLACE FUNCTION act.forget_pii(stream text) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  forgotten bigint;
BEGIN
  IF forget_pii.stream IS NULL THEN
    RAISE EXCEPTION 'stream must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  PERFORM act._require_hosted(forget_pii.stream);
  UPDATE act.events e SET pii = NULL WHERE e.stream = forget_pii.stream AND e.pii IS NOT NULL;
  GET DIAGNOSTICS forgotten = ROW_COUNT;
  RETURN forgotten;
END $$;

-- Also refuses a stream of another partition (partitioned mode).
CREATE OR REPLACE FUNCTION act._require_stream(value jsonb, what text) RETURNS text
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) <> 'string' THEN
    RAISE EXCEPTION '% must be a stream name (a JSON string)', what USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF octet_length(value #>> '{}') = 0 OR octet_length(value #>> '{}') > 1000 THEN
    RAISE EXCEPTION '% must be 1 to 1000 bytes long', what USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM act._require_hosted(value #>> '{}');
  RETURN value #>> '{}';
END $$;

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

REVOKE ALL ON FUNCTION act.partition_of(text, int), act.set_partition(int, int), act.hosted_partition(),
  act._require_hosted(text) FROM PUBLIC;
REVOKE ALL ON act.partitioning FROM PUBLIC;
GRANT SELECT ON act.partitioning TO act_reader;
GRANT EXECUTE ON FUNCTION act.partition_of(text, int), act.hosted_partition() TO act_reader;
GRANT EXECUTE ON FUNCTION act.set_partition(int, int) TO act_admin;
