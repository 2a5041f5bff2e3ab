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
