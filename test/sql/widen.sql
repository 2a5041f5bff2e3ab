-- act.widen: names added to existing rows, the mark back-filled for them and
-- never lowered, events at or below the watermark not handed over, wide rows
-- moved to the class of their new names, the lease of a claimed row dropped,
-- bad input refused with nothing written.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT has_function('act', 'widen', ARRAY['text', 'jsonb'], 'act.widen signature');

SELECT count(*) FROM act.commit('o-1', '[{"name": "A"}, {"name": "B"}]');   -- 1, 2
SELECT count(*) FROM act.commit('o-2', '[{"name": "B"}, {"name": "A"}]');   -- 3, 4
SELECT count(*) FROM act.commit('p-1', '[{"name": "B"}]');                  -- 5
-- A lane each, so that each claim below takes only the rows it means.
SELECT count(*) FROM act.subscribe('[{"stream": "lit", "source": "o-1", "names": ["A"], "lane": "l"},
                                     {"stream": "pat", "source": "^o-", "names": ["A"], "lane": "p"},
                                     {"stream": "pat-twin", "source": "^o-", "names": ["A"], "lane": "p"},
                                     {"stream": "every", "lane": "e"}]');
SELECT results_eq($$SELECT stream, correlated_at FROM act.subscriptions ORDER BY stream$$,
  $$VALUES ('every'::text, 5::bigint), ('lit', 1), ('pat', 4), ('pat-twin', 4)$$, 'the rows before: back-filled by A');

CREATE FUNCTION pg_temp.class_of(target text) RETURNS int LANGUAGE sql AS $$
  SELECT class FROM act.subscription_rows WHERE stream = target
$$;
CREATE TEMP TABLE old_class AS SELECT pg_temp.class_of('pat') AS id;

-- A literal row, claimed before the widen: the worker read A only.
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w-old', 60000, 'l')), 1::bigint, 'lit is claimed by w-old');
SELECT results_eq($$SELECT stream, names, added, at, correlated_at FROM act.widen('lit', '["B"]')$$,
  $$VALUES ('lit'::text, ARRAY['A', 'B'], ARRAY['B'], -1::bigint, 2::bigint)$$,
  'a literal row: B added; the mark rises to the last B of its source (2)');
SELECT is((SELECT names FROM act.subscription_rows WHERE stream = 'lit'), ARRAY['A', 'B'], 'the row stores the new names');
SELECT ok((SELECT leased_by IS NULL AND leased_until IS NULL FROM act.subscription_rows WHERE stream = 'lit'),
  'the lease taken before the widen is dropped');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "lit", "by": "w-old", "at": 1}]')), 0::bigint,
  'so the old worker''s ack, which would pass B over, is dropped');
SELECT is((SELECT at FROM act.subscriptions WHERE stream = 'lit'), -1::bigint, 'and the watermark stays');
SELECT is((SELECT jsonb_path_query_array(events, '$[*].id') FROM act.claim_events(10, 0, 'w-new', 60000, 'l')),
  '[1, 2]'::jsonb, 'the next claim hands over A and B after the watermark');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "lit", "by": "w-new", "at": 2}]')), 1::bigint, 'lit acknowledged at 2');

-- A wide row acknowledged past a B: the mark never falls, and B events at
-- or below the watermark stay behind.
SELECT is((SELECT count(*) FROM act.ack((SELECT jsonb_agg(jsonb_build_object('stream', stream, 'by', by, 'at', 4))
                                           FROM act.claim(10, 0, 'w-1', 60000, 'p')))),
  2::bigint, 'pat and pat-twin acknowledged at 4');
SELECT count(*) FROM act.commit('o-3', '[{"name": "A"}]');                  -- 6
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'pat'), 6::bigint, 'pat''s class mark is 6');
SELECT results_eq($$SELECT stream, names, added, at, correlated_at FROM act.widen('pat', '["B"]')$$,
  $$VALUES ('pat'::text, ARRAY['A', 'B'], ARRAY['B'], 4::bigint, 6::bigint)$$,
  'a wide row keeps its class''s mark (6): the last B of its source (3) is below it');
SELECT isnt(pg_temp.class_of('pat'), (SELECT id FROM old_class), 'it moved to the class of its new names');
SELECT results_eq($$SELECT source, names FROM act.wide_classes WHERE id = pg_temp.class_of('pat')$$,
  $$VALUES ('^o-'::text, ARRAY['A', 'B'])$$, 'a class of (source, names) created for it');
SELECT is(pg_temp.class_of('pat-twin'), (SELECT id FROM old_class), 'the row that shared its class stays there');
SELECT is((SELECT jsonb_path_query_array(events, '$[*].id') FROM act.claim_events(10, 0, 'w-2', 60000, 'p') WHERE stream = 'pat'),
  '[6]'::jsonb, 'B 3 is at or below the watermark: not handed over (and B 5 is not of its source)');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "pat", "by": "w-2", "at": 6}]')), 1::bigint, 'pat acknowledged at 6');

-- The second row of the old class joins the new one; the emptied class goes, with its marks.
SELECT results_eq($$SELECT names, added, correlated_at FROM act.widen('pat-twin', '["B"]')$$,
  $$VALUES (ARRAY['A', 'B'], ARRAY['B'], 6::bigint)$$, 'pat-twin widened; its mark kept');
SELECT is(pg_temp.class_of('pat-twin'), pg_temp.class_of('pat'), 'the same source and names: the same class');
SELECT is((SELECT count(*) FROM act.wide_classes WHERE id = (SELECT id FROM old_class)), 0::bigint,
  'the class no row is left in is dropped');
SELECT is((SELECT count(*) FROM act.wide_marks WHERE class = (SELECT id FROM old_class)), 0::bigint, 'with its marks');

-- Commits after the widen mark by the new names.
SELECT count(*) FROM act.commit('o-4', '[{"name": "B"}]');                  -- 7
SELECT count(*) FROM act.commit('o-1', '[{"name": "B"}]');                  -- 8
SELECT results_eq($$SELECT stream, correlated_at FROM act.subscriptions WHERE stream <> 'every' ORDER BY stream$$,
  $$VALUES ('lit'::text, 8::bigint), ('pat', 8), ('pat-twin', 8)$$, 'a commit of B marks the widened rows');
SELECT is((SELECT array_agg(stream ORDER BY stream) FROM act.claim(10, 0, 'w-3', 60000) WHERE stream <> 'every'),
  ARRAY['lit', 'pat', 'pat-twin'], 'and they are claimable');

-- Nothing to add: a row of every name, or names it has already. Nothing is written.
CREATE TEMP TABLE before_noop AS SELECT pg_temp.state() AS state;
SELECT results_eq($$SELECT stream, names, added, at, correlated_at FROM act.widen('every', '["B"]')$$,
  $$VALUES ('every'::text, NULL::text[], '{}'::text[], -1::bigint, 8::bigint)$$, 'a row of every name is left as it is');
SELECT results_eq($$SELECT names, added FROM act.widen('lit', '["B", "A", "B"]')$$,
  $$VALUES (ARRAY['A', 'B'], '{}'::text[])$$, 'names the row has: nothing added');
SELECT is(pg_temp.state(), (SELECT state FROM before_noop), 'and nothing written (the lease of w-3 kept)');

-- A class whose mark came from events act.truncate deleted since: the row
-- that joins it by a widen does not take that mark as work.
SELECT count(*) FROM act.subscribe('[{"stream": "gone-1", "source": "^gone-", "names": ["X", "Y"]}]');
SELECT count(*) FROM act.commit('gone-a', '[{"name": "Y"}]');
SELECT count(*) FROM act.truncate('[{"stream": "gone-a", "snapshot": {}}]');
SELECT count(*) FROM act.subscribe('[{"stream": "gone-2", "source": "^gone-", "names": ["X"]}]');
SELECT results_eq($$SELECT names, added, correlated_at FROM act.widen('gone-2', '["Y"]')$$,
  $$VALUES (ARRAY['X', 'Y'], ARRAY['Y'], NULL::bigint)$$, 'gone-2 widened: no Y event exists any more');
SELECT is(pg_temp.class_of('gone-2'), pg_temp.class_of('gone-1'), 'it joins gone-1''s class');
SELECT is((SELECT count(*) FROM act.claim(1000, 0, 'w-gone', 60000) WHERE stream = 'gone-2'), 0::bigint,
  'and is not claimed for the deleted event');
SELECT count(*) FROM act.commit('gone-b', '[{"name": "Y"}]');
SELECT is((SELECT count(*) FROM act.claim(1000, 0, 'w-gone', 60000) WHERE stream = 'gone-2'), 1::bigint,
  'a new Y is its work');

-- Bad input: one fault per call, each refused with nothing written.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen(NULL, '["B"]')$$, '22004', 'stream must not be null', 'a NULL stream');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('lit', NULL)$$, '22004', 'names must not be null', 'NULL names');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('', '["B"]')$$, '22023', 'stream must not be empty', 'an empty stream');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('nope', '["B"]')$$,
  '22023', 'subscription "nope" does not exist: act.subscribe creates it with its names', 'a stream with no subscription');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('lit', '{"names": ["C"]}')$$,
  '22023', 'names must be a JSON array, not an object', 'an object, not an array');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('lit', '"C"')$$,
  '22023', 'names must be a JSON array, not a string', 'a string, not an array');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('lit', '[]')$$,
  '22023', 'names must not be empty: give the event names to add', 'an empty array');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('lit', '["C", 1]')$$,
  '22023', 'names[1] must be a string, not a number', 'a name that is not a string');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('lit', '["C", ""]')$$,
  '22023', 'names[1] must not be empty', 'an empty name');
SELECT * FROM pg_temp.refused(format('SELECT * FROM act.widen(%L, %L)', 'lit', jsonb_build_array(repeat('n', 201))),
  '22023', 'names[0] is longer than 200 bytes', 'a name longer than any event''s');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('lit', '["C", "__snapshot__"]')$$,
  '22023', 'names[1] is "__snapshot__": snapshots and tombstones are never work', 'a snapshot');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('lit', '["__tombstone__"]')$$,
  '22023', 'names[0] is "__tombstone__": snapshots and tombstones are never work', 'a tombstone');
SELECT is((SELECT names FROM act.subscription_rows WHERE stream = 'lit'), ARRAY['A', 'B'], 'lit still has A and B only');

SELECT * FROM finish();
ROLLBACK;
