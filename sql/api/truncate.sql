-- Closes or compacts streams (docs/reference.md, act.truncate).
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
    DELETE FROM act.event_tags t WHERE t.id = ANY (gone_ids);
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
    DELETE FROM act.event_tags t WHERE t.id = ANY (gone_ids);
    stream := target_stream; deleted := removed; id := boundary.id; version := boundary.version;
    name := boundary.name; before := window_before;
    RETURN NEXT;
  END LOOP;

  -- What was deleted stays accounted for in the log (docs/verifiable-log.md).
  IF cardinality(removed_ids) > 0 THEN
    PERFORM act._record_removal(removed_ids);
  END IF;
END $$;
-- grant act_admin: Closes streams (tombstone), compacts them to a snapshot, or drops events before a retention window
