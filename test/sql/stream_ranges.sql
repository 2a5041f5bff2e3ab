-- Reads of one stream after an id (act.query with stream and after,
-- act.claim_events for a literal source) start their index range at the
-- stream's first version above that id, found by bisecting versions: for
-- every possible id, the same events as a plain SELECT, with and without a
-- limit, on interleaved streams, an uneven one, a short one and one whose
-- head was truncated.
BEGIN;
SELECT * FROM no_plan();

-- long-a and long-b alternate ids (150 events each); short has 3 events.
DO $$
BEGIN
  FOR i IN 1..150 LOOP
    PERFORM count(*) FROM act.commit('long-a', '[{"name": "A"}]');
    PERFORM count(*) FROM act.commit('long-b', '[{"name": "B"}, {"name": "B"}]');
  END LOOP;
END $$;
SELECT count(*) FROM act.commit('short', '[{"name": "S"}, {"name": "S"}, {"name": "S"}]');
-- lumpy: 70 events, 2,000 of another stream, 70 more: ids do not grow evenly
-- with its versions, so guessing by interpolation misses.
SELECT count(*) FROM act.commit('lumpy', (SELECT jsonb_agg(jsonb_build_object('name', 'L')) FROM generate_series(1, 70)));
SELECT count(*) FROM act.commit('filler', (SELECT jsonb_agg(jsonb_build_object('name', 'F')) FROM generate_series(1, 2000)));
SELECT count(*) FROM act.commit('lumpy', (SELECT jsonb_agg(jsonb_build_object('name', 'L')) FROM generate_series(1, 70)));

-- How many ids from -1 to past the last give act.query other events than a
-- plain read of the table (ids only, in order, at most max_events).
CREATE FUNCTION pg_temp.query_mismatches(stream text, max_events int) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM generate_series(-1, (SELECT max(id) + 2 FROM act.events)) a
   WHERE ARRAY(SELECT q.id FROM act.query(stream, after => a, max_events => max_events) q)
         IS DISTINCT FROM ARRAY(SELECT e.id FROM act.events e WHERE e.stream = query_mismatches.stream AND e.id > a
                                 AND e.name <> '__snapshot__' ORDER BY e.id LIMIT nullif(max_events, 0))
$$;

SELECT is(pg_temp.query_mismatches('long-a', 0), 0::bigint, 'act.query after every id: a long stream, whole');
SELECT is(pg_temp.query_mismatches('long-a', 5), 0::bigint, 'act.query after every id: a long stream, 5 at a time');
SELECT is(pg_temp.query_mismatches('long-b', 3), 0::bigint, 'act.query after every id: two events a commit');
SELECT is(pg_temp.query_mismatches('lumpy', 4), 0::bigint, 'act.query after every id: ids uneven in versions');
SELECT is(pg_temp.query_mismatches('short', 0), 0::bigint, 'act.query after every id: a short stream (not bisected)');
SELECT is(pg_temp.query_mismatches('missing', 0), 0::bigint, 'act.query after every id: no such stream');

-- A windowed truncate: long-a then starts at its snapshot, version 150.
SELECT count(*) FROM act.commit('long-a', '[{"name": "__snapshot__", "data": {}}]');
SELECT count(*) FROM act.commit('long-a', (SELECT jsonb_agg(jsonb_build_object('name', 'A')) FROM generate_series(1, 80)));
SELECT is((SELECT deleted FROM act.truncate(format('[{"stream": "long-a", "before": "%s", "max_id": %s}]', clock_timestamp(),
                                                   (SELECT max(id) FROM act.events WHERE name = '__snapshot__'))::jsonb)),
  150::bigint, 'the truncate deletes the 150 events before the snapshot');
SELECT is(pg_temp.query_mismatches('long-a', 7), 0::bigint, 'act.query after every id: a stream whose head was truncated');

-- act.claim_events: a subscription (on a lane of its own) set at every id it
-- can have work after; its events are the same as the plain read's (10 at a
-- time). A literal source reads the stream's range, a pattern the id range.
-- (from just before its first event, every `step`-th id: a pattern's read
-- filters the whole log after the id)
CREATE FUNCTION pg_temp.claim_mismatches(follower text, source text, step int DEFAULT 1) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  wrong bigint := 0;
  claimed jsonb;
  pattern boolean := source ~ '[\^$]';
BEGIN
  PERFORM count(*) FROM act.subscribe(jsonb_build_array(jsonb_build_object('stream', follower, 'source', source, 'lane', follower)));
  FOR a IN (SELECT min(id) - 2 FROM act.events e WHERE CASE WHEN pattern THEN e.stream ~ source ELSE e.stream = source END)
        .. (SELECT max(id) - 1 FROM act.events e WHERE CASE WHEN pattern THEN e.stream ~ source ELSE e.stream = source END) BY step LOOP
    UPDATE act.subscription_rows SET at = a, leased_by = NULL, leased_until = NULL WHERE stream = follower;
    SELECT c.events INTO claimed FROM act.claim_events(1, 0, 'w', 0, follower, max_events => 10) c;
    IF ARRAY(SELECT (e ->> 'id')::bigint FROM jsonb_array_elements(claimed) e)
       IS DISTINCT FROM ARRAY(SELECT e.id FROM act.events e WHERE CASE WHEN pattern THEN e.stream ~ source ELSE e.stream = source END
                               AND e.id > a AND e.name NOT IN ('__snapshot__', '__tombstone__') ORDER BY e.id LIMIT 10) THEN
      wrong := wrong + 1;
    END IF;
  END LOOP;
  RETURN wrong;
END $$;
SELECT is(pg_temp.claim_mismatches('follow-a', 'long-a'), 0::bigint,
  'act.claim_events at every id: the same events as a plain read');
SELECT is(pg_temp.claim_mismatches('follow-short', 'short'), 0::bigint,
  'act.claim_events at every id: a short stream (its range starts at its first version)');
SELECT is(pg_temp.claim_mismatches('follow-lumpy', 'lumpy'), 0::bigint,
  'act.claim_events at every id: ids uneven in versions');
SELECT is(pg_temp.claim_mismatches('follow-pattern', '^(short|lumpy)$', 5), 0::bigint,
  'act.claim_events at every id: a pattern source');
SELECT is((SELECT count(*) FROM act.events WHERE stream = 'long-a'), 81::bigint, 'the reads wrote nothing');

SELECT * FROM finish();
ROLLBACK;
