-- act.query_stats with a limit walks the streams, not the log: every page
-- of a listing, however it is cut, is the listing read whole (which reads
-- the log); and a first page reads neither the whole log nor any of it by a
-- sequential scan.
BEGIN;
SELECT * FROM no_plan();

-- 300 streams whose names sort differently in C and in most collations
-- (case, punctuation), of 1 to 9 events with three names, snapshots among
-- them; some streams have only events the options below leave out.
SELECT count(*) FROM generate_series(1, 300) s,
  act.commit((ARRAY['s-', 'S-', '_s', 's_', 'Ab.'])[s % 5 + 1] || s,
             (SELECT jsonb_agg(jsonb_build_object('name', (ARRAY['A', 'B', 'Only', '__snapshot__'])[CASE WHEN s % 7 = 0 THEN 3
                                                           ELSE (s * i) % 4 + 1 END], 'data', jsonb_build_object('i', i)))
                FROM generate_series(1, s % 9 + 1) i));

-- Every page of `size` after `after` in turn, with the options, as one
-- listing of (stream, row as text).
CREATE FUNCTION pg_temp.paged(streams jsonb, options jsonb, size int) RETURNS TABLE(s text, r text) LANGUAGE plpgsql AS $$
DECLARE
  after text;
  last text;
BEGIN
  LOOP
    last := NULL;
    FOR s, r IN SELECT q.stream, row(q.*)::text
                  FROM act.query_stats(streams, options || jsonb_build_object('limit', size)
                                                || CASE WHEN after IS NULL THEN '{}' ELSE jsonb_build_object('after', after) END) q LOOP
      RETURN NEXT;
      last := s;
    END LOOP;
    EXIT WHEN last IS NULL;
    -- A page that does not move on would loop for ever.
    IF after IS NOT NULL AND last COLLATE "C" <= after COLLATE "C" THEN
      RAISE EXCEPTION 'a page after % ends at %', after, last;
    END IF;
    after := last;
  END LOOP;
END $$;
-- The listing read whole (no limit: the log read once).
CREATE FUNCTION pg_temp.whole(streams jsonb, options jsonb) RETURNS TABLE(s text, r text) LANGUAGE sql AS $$
  SELECT q.stream, row(q.*)::text FROM act.query_stats(streams, options || '{"limit": 0}') q
$$;

SELECT is((SELECT count(*) FROM pg_temp.whole('{}', '{}')), 300::bigint, 'the listing has every stream');
SELECT results_eq($$SELECT r FROM pg_temp.paged('{}', '{}', 1)$$, $$SELECT r FROM pg_temp.whole('{}', '{}')$$,
  'pages of 1 are the listing');
SELECT results_eq($$SELECT r FROM pg_temp.paged('{}', '{}', 7)$$, $$SELECT r FROM pg_temp.whole('{}', '{}')$$,
  'pages of 7 are the listing');
SELECT results_eq($$SELECT r FROM pg_temp.paged('{}', '{"tail": true, "count": true, "names": true}', 50)$$,
  $$SELECT r FROM pg_temp.whole('{}', '{"tail": true, "count": true, "names": true}')$$,
  'pages of 50 with tail, count and names are the listing');
SELECT results_eq($$SELECT r FROM pg_temp.paged('{}', '{"exclude": ["Only", "B"], "count": true, "names": true}', 13)$$,
  $$SELECT r FROM pg_temp.whole('{}', '{"exclude": ["Only", "B"], "count": true, "names": true}')$$,
  'with names excluded (streams with none left are absent)');
SELECT isnt((SELECT count(*) FROM pg_temp.whole('{}', '{"exclude": ["Only"]}')), 300::bigint, 'and some are absent');
SELECT results_eq($$SELECT r FROM pg_temp.paged('{}', '{"before": 400, "tail": true, "count": true}', 9)$$,
  $$SELECT r FROM pg_temp.whole('{}', '{"before": 400, "tail": true, "count": true}')$$, 'with before');
SELECT results_eq($$SELECT r FROM pg_temp.paged('{"stream": "^[sS]-1", "stream_exact": false}', '{"names": true}', 4)$$,
  $$SELECT r FROM pg_temp.whole('{"stream": "^[sS]-1", "stream_exact": false}', '{"names": true}')$$, 'with a pattern');
SELECT results_eq($$SELECT row(q.*)::text FROM act.query_stats('{}', '{"after": "_s", "limit": 3, "count": true}') q$$,
  $$SELECT r FROM pg_temp.whole('{}', '{"count": true}') WHERE s COLLATE "C" > '_s' LIMIT 3$$,
  'a page after a name that is no stream');
SELECT is((SELECT count(*) FROM act.query_stats('{}', '{"after": "~", "limit": 3}')), 0::bigint, 'a page after the last stream is empty');

-- A first page reads what it returns (and, in a collation other than C,
-- each stream's name once), never the log: counted in rows, not timed.
CREATE TEMP TABLE reads AS SELECT seq_scan, seq_tup_read, idx_tup_fetch FROM pg_stat_xact_user_tables
  WHERE relid = 'act.events'::regclass;
SELECT count(*) FROM act.query_stats('{}', '{"limit": 1, "count": true}');
SELECT is((SELECT t.seq_scan - r.seq_scan FROM pg_stat_xact_user_tables t, reads r WHERE t.relid = 'act.events'::regclass),
  0::bigint, 'a first page scans no part of the log sequentially');
SELECT cmp_ok((SELECT t.idx_tup_fetch - r.idx_tup_fetch FROM pg_stat_xact_user_tables t, reads r WHERE t.relid = 'act.events'::regclass),
  '<=', (SELECT count(DISTINCT stream) + 20 FROM act.events), 'and fetches no more rows than there are streams, and its own');
SELECT cmp_ok((SELECT count(DISTINCT stream) + 20 FROM act.events), '<', (SELECT count(*) FROM act.events),
  '(fewer than the log has events)');

SELECT * FROM finish();
ROLLBACK;
