-- Per-stream head/tail/count/names (docs/reference.md, act.query_stats).
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
-- grant act_reader: Per-stream head (and tail, count, names by event) of the streams that have qualifying events
