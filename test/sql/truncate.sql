-- act.truncate: full (tombstone / snapshot seed) and windowed targets, ordering, bad input.
BEGIN;
SELECT * FROM no_plan();

SELECT has_function('act', 'truncate', ARRAY['jsonb'], 'act.truncate(targets)');
SELECT count(*) FROM act.commit('t-1', '[{"name": "A"}, {"name": "B"}, {"name": "C"}]');
SELECT count(*) FROM act.commit('t-2', '[{"name": "A"}]');

CREATE TEMP TABLE r1 AS SELECT * FROM act.truncate('[{"stream": "t-1"}]');
SELECT results_eq('SELECT stream, deleted, version, name, before FROM r1',
  $$VALUES ('t-1', 3::bigint, 0, '__tombstone__', NULL::timestamptz)$$, 'a full target without snapshot closes the stream');
SELECT ok((SELECT id FROM r1) > 4, 'the seed takes a new, higher id');
SELECT results_eq($$SELECT version, name, data, meta FROM act.query('t-1')$$,
  $$VALUES (0, '__tombstone__', '{}'::jsonb, '{"causation": {}, "correlation": ""}'::jsonb)$$, 'the tombstone with default meta');

CREATE TEMP TABLE r2 AS SELECT * FROM act.truncate('[{"stream": "t-2", "snapshot": {"total": 1}, "meta": {"correlation": "k"}}]');
SELECT results_eq('SELECT deleted, version, name FROM r2', $$VALUES (1::bigint, 0, '__snapshot__')$$, 'a full target with snapshot');
SELECT results_eq($$SELECT name, data, meta FROM act.query('t-2', with_snaps => true)$$,
  $$VALUES ('__snapshot__', '{"total": 1}'::jsonb, '{"correlation": "k"}'::jsonb)$$, 'the snapshot seed carries data and meta');
SELECT is((SELECT version FROM act.commit('t-2', '[{"name": "B"}]')), 1, 'commits continue at version 1');
SELECT results_eq($$SELECT deleted, version FROM act.truncate('[{"stream": "unknown-1", "snapshot": {}}]')$$,
  $$VALUES (0::bigint, 0)$$, 'an unknown stream is seeded too, deleted = 0');

-- Windowed
SELECT count(*) FROM act.commit('w-1', '[{"name": "A"}, {"name": "__snapshot__", "data": {"s": 1}}, {"name": "B"}, {"name": "__snapshot__", "data": {"s": 2}}, {"name": "C"}]');
CREATE TEMP TABLE snaps AS SELECT id, version FROM act.events WHERE stream = 'w-1' AND name = '__snapshot__' ORDER BY id;
SELECT is((SELECT count(*) FROM act.truncate(format('[{"stream": "w-1", "before": "%s"}]', now())::jsonb)), 0::bigint,
  'no snapshot created before the window: no row, nothing deleted');
SELECT is((SELECT count(*) FROM act.events WHERE stream = 'w-1'), 5::bigint, 'the stream is untouched');
SELECT results_eq(format($$SELECT deleted, id, version FROM act.truncate('[{"stream": "w-1", "before": "%s", "max_id": %s}]')$$,
                         clock_timestamp(), (SELECT min(id) FROM snaps)),
  format($$VALUES (1::bigint, %s::bigint, 1)$$, (SELECT min(id) FROM snaps)),
  'max_id picks an older snapshot as the boundary') ;
SELECT is((SELECT min(version) FROM act.events WHERE stream = 'w-1'), 1, 'events before the boundary are gone');
CREATE TEMP TABLE r3 AS SELECT * FROM act.truncate(format('[{"stream": "w-1", "before": "%s"}]', clock_timestamp() + interval '1 hour')::jsonb);
SELECT results_eq('SELECT deleted, version, name FROM r3', $$VALUES (2::bigint, 3, '__snapshot__')$$, 'the latest snapshot before the window');
SELECT ok((SELECT before IS NOT NULL FROM r3), 'before is echoed');
SELECT results_eq($$SELECT version FROM act.query('w-1', with_snaps => true)$$, ARRAY[3, 4], 'boundary and tail are kept');

-- Order: full targets first, then windowed, input order within each group
SELECT count(*) FROM act.commit('o-1', '[{"name": "__snapshot__", "data": {}}, {"name": "X"}]');
SELECT results_eq(format($$SELECT stream FROM act.truncate('[{"stream": "o-1", "before": "%s"}, {"stream": "o-3"}, {"stream": "o-2"}]')$$, clock_timestamp() + interval '1 hour'),
  ARRAY['o-3', 'o-2', 'o-1'], 'full targets first, then windowed');
SELECT is((SELECT count(*) FROM act.truncate('[]')), 0::bigint, 'an empty list does nothing');

-- Bad input: nothing written
CREATE TEMP TABLE before_bad AS SELECT count(*) AS n FROM act.events;
SELECT throws_ok($$SELECT * FROM act.truncate('{"stream": "t-2"}')$$, '22023', 'targets must be a JSON array, not object', 'not an array');
SELECT throws_ok($$SELECT * FROM act.truncate('[{"stream": "t-2"}, {"stream": 5}]')$$, '22023',
  'targets[1].stream must be a stream name (a JSON string)', 'a bad element stops everything');
SELECT throws_ok($$SELECT * FROM act.truncate('[{"stream": "t-2", "snapshot": {}, "before": "2026-01-01"}]')$$, '22023',
  'targets[0] has both "snapshot" and "before"', 'snapshot and before together');
SELECT throws_ok($$SELECT * FROM act.truncate('[{"stream": "t-2", "snapshot": [1]}]')$$, '22023',
  'targets[0].snapshot must be a JSON object, not array', 'a non-object snapshot');
SELECT throws_ok($$SELECT * FROM act.truncate('[{"stream": "t-2", "before": "soon"}]')$$, '22007', NULL, 'a bad timestamp');
SELECT throws_ok($$SELECT * FROM act.truncate('[{"stream": "t-2", "max_id": 5}]')$$, '22023',
  'targets[0].max_id needs "before" (a retention window)', 'max_id without before does not close the stream');
SELECT throws_ok($$SELECT * FROM act.truncate('[{"stream": "t-2"}, {"stream": "t-2", "snapshot": {}}]')$$, '22023',
  'targets name stream "t-2" more than once', 'one stream twice');
SELECT is((SELECT count(*) FROM act.events), (SELECT n FROM before_bad), 'nothing was written');
SELECT results_eq($$SELECT name FROM act.truncate('[{"stream": "t-5", "snapshot": null, "meta": null, "before": null}]')$$,
  ARRAY['__tombstone__'], 'null snapshot, meta and before read as absent');

SELECT * FROM finish();
ROLLBACK;
