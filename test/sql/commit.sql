-- act.commit: versions, ids, atomicity, conflicts, closed streams, bad input.
BEGIN;
SELECT * FROM no_plan();

SELECT has_function('act', 'commit', ARRAY['text', 'jsonb', 'jsonb', 'bigint'], 'act.commit(stream, events, meta, expected_version bigint)');
SELECT function_returns('act', 'commit', ARRAY['text', 'jsonb', 'jsonb', 'bigint'], 'setof act.events', 'returns SETOF act.events');

-- Happy path
CREATE TEMP TABLE c1 AS SELECT * FROM act.commit('order-1',
  '[{"name": "Placed", "data": {"sku": "A1", "qty": 2}, "pii": {"email": "a@b.c"}}, {"name": "Paid"}, {"name": "Shipped", "data": {}}]',
  '{"correlation": "c-1", "causation": {}}', -1);
SELECT is(current_setting('act.notify'), CASE act.mode() WHEN 'fenced' THEN 'on' ELSE 'off' END, 'act.notify defaults to on in fenced mode, off in concurrent mode');
SELECT results_eq('SELECT version, name FROM c1 ORDER BY version',
  $$VALUES (0, 'Placed'), (1, 'Paid'), (2, 'Shipped')$$, 'versions 0..N-1 in array order');
SELECT ok((SELECT bool_and(id > 0) FROM c1) AND (SELECT array_agg(id ORDER BY version) = array_agg(id ORDER BY id) FROM c1),
  'ids increase in array order');
SELECT is((SELECT max(id) - min(id) FROM c1), 2::bigint, 'one commit takes consecutive ids (fenced)');
SELECT is((SELECT count(DISTINCT created) FROM c1), 1::bigint, 'one created for the whole commit');
SELECT is((SELECT min(created) FROM c1), now(), 'created is the transaction time');
SELECT is((SELECT count(DISTINCT meta) FROM c1), 1::bigint, 'one meta for the whole commit');
SELECT is((SELECT meta FROM c1 LIMIT 1), '{"correlation": "c-1", "causation": {}}'::jsonb, 'meta stored as given');
SELECT is((SELECT data FROM c1 WHERE version = 0), '{"sku": "A1", "qty": 2}'::jsonb, 'data stored');
SELECT is((SELECT data FROM c1 WHERE version = 1), '{}'::jsonb, 'absent data is {}');
SELECT is((SELECT pii FROM c1 WHERE version = 0), '{"email": "a@b.c"}'::jsonb, 'pii stored');
SELECT ok((SELECT pii IS NULL FROM c1 WHERE version = 1), 'absent pii is NULL');
SELECT is((SELECT count(*) FROM act.events WHERE stream = 'order-1'), 3::bigint, 'rows are in the log');
SELECT ok((SELECT bool_and(octet_length(hash) = 32) FROM c1), 'every event has a 32-byte hash');

SELECT is((SELECT version FROM act.commit('order-1', '[{"name": "Delivered"}]', '{}', 2)), 3, 'expected version = head: commits');
SELECT is((SELECT version FROM act.commit('order-1', '[{"name": "Noted", "pii": null}]')), 4, 'no expected version: appends');
SELECT is((SELECT meta FROM act.commit('order-1', '[{"name": "Defaulted"}]')), '{}'::jsonb, 'meta defaults to {}');
SELECT is((SELECT meta FROM act.commit('order-1', '[{"name": "NullMeta"}]', NULL)), '{}'::jsonb, 'NULL meta is {}');
SELECT is((SELECT count(*) FROM act.commit('order-2', '[{"name": "__snapshot__", "data": {"state": 1}}]')), 1::bigint,
  'a client may commit a __snapshot__ event');

-- Conflicts
SELECT throws_ok($$SELECT * FROM act.commit('order-1', '[{"name": "Late"}]', '{}', 2)$$, '40001',
  'concurrency conflict on stream "order-1": expected version 2, actual version 6', 'stale expected version');
SELECT throws_ok($$SELECT * FROM act.commit('order-1', '[{"name": "Late"}]', '{}', -1)$$, '40001',
  'concurrency conflict on stream "order-1": expected version -1, actual version 6', '-1 on an existing stream');
SELECT throws_ok($$SELECT * FROM act.commit('new-1', '[{"name": "Late"}]', '{}', 0)$$, '40001',
  'concurrency conflict on stream "new-1": expected version 0, actual version -1', 'a version on a missing stream');
SELECT throws_ok($$SELECT * FROM act.commit('order-1', '[]', '{}', 3)$$, '40001',
  'concurrency conflict on stream "order-1": expected version 3, actual version 6', 'the empty list still checks');
SELECT is((SELECT count(*) FROM act.commit('order-1', '[]', '{}', 6)), 0::bigint, 'empty list: nothing returned');
SELECT is((SELECT count(*) FROM act.commit('order-1', '[]')), 0::bigint, 'empty list without a check');
SELECT is(act.version('order-1'), 6, 'conflicts and empty lists wrote nothing');

-- Bad input: 22023 (22004 for NULLs), nothing written
CREATE TEMP TABLE before_bad AS SELECT count(*) AS n, max(id) AS last FROM act.events;
SELECT throws_ok($$SELECT * FROM act.commit('s', '{"name": "X"}')$$, '22023',
  'events for stream "s" must be a JSON array, not an object', 'events must be an array');
SELECT throws_ok($$SELECT * FROM act.commit('s', '"X"')$$, '22023',
  'events for stream "s" must be a JSON array, not a string', 'a scalar is not an array');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[1]')$$, '22023',
  'event 0 of stream "s" must be a JSON object, not a number', 'elements must be objects');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": "A"}, {"data": {}}]')$$, '22023',
  'event 1 of stream "s" has no "name"', 'an element without a name (and the good one before it is not written)');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": 7}]')$$, '22023',
  'event 0 of stream "s": "name" must be a string, not a number', 'a non-string name');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": null}]')$$, '22023',
  'event 0 of stream "s" has no "name"', 'a null name');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": ""}]')$$, '22023',
  'event 0 of stream "s": "name" must not be empty', 'an empty name');
SELECT throws_ok(format($$SELECT * FROM act.commit('s', '[{"name": "%s"}]')$$, repeat('n', 201)), '22023',
  'event 0 of stream "s": "name" is longer than 200 bytes', 'a name over 200 bytes');
SELECT is((SELECT count(*) FROM act.commit('s200', format('[{"name": "%s"}]', repeat('n', 200))::jsonb)), 1::bigint,
  'a name of exactly 200 bytes is fine');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": "__tombstone__"}]')$$, '22023', NULL,
  '__tombstone__ is reserved for act.truncate');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": "A", "data": [1]}]')$$, '22023',
  'event 0 of stream "s": "data" must be a JSON object, not an array', 'array data');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": "A", "data": "x"}]')$$, '22023',
  'event 0 of stream "s": "data" must be a JSON object, not a string', 'string data');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": "A", "data": null}]')$$, '22023',
  'event 0 of stream "s": "data" must be a JSON object, not null', 'null data');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": "A", "pii": "secret"}]')$$, '22023',
  'event 0 of stream "s": "pii" must be a JSON object or null, not a string', 'string pii');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": "A"}]', '[]')$$, '22023',
  'meta for stream "s" must be a JSON object, not an array', 'array meta');
SELECT throws_ok($$SELECT * FROM act.commit('', '[{"name": "A"}]')$$, '22023', 'stream must not be empty', 'empty stream');
SELECT throws_ok(format($$SELECT * FROM act.commit('%s', '[{"name": "A"}]')$$, repeat('s', 1001)), '22023', NULL,
  'a stream name over 1000 bytes');
SELECT is((SELECT count(*) FROM act.commit(repeat('s', 1000), '[{"name": "A"}]')), 1::bigint,
  'a stream name of exactly 1000 bytes is fine');
SELECT throws_ok(format($$SELECT * FROM act.commit('%s', '[{"name": "B"}]', '{}', 5)$$, repeat('s', 1000)), '40001',
  format('concurrency conflict on stream "%s": expected version 5, actual version 0', repeat('s', 1000)),
  'the conflict message names a long stream in full');
SELECT throws_ok($$SELECT * FROM act.commit(NULL, '[{"name": "A"}]')$$, '22004', 'stream must not be null', 'NULL stream');
SELECT throws_ok($$SELECT * FROM act.commit('s', NULL)$$, '22004', 'events for stream "s" must not be null', 'NULL events');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": "A"}]', '{}', -2)$$, '22023',
  'expected_version for stream "s" must be -1 to 2147483647, not -2', 'expected_version below -1');
SELECT throws_ok($$SELECT * FROM act.commit('s', '[{"name": "A\u0000"}]')$$, '22P05', NULL,
  'a NUL character is refused by the jsonb parser');
SELECT is((SELECT count(*) FROM act.events), (SELECT n + 2 FROM before_bad), 'bad input wrote nothing (only the two good commits landed)');
SELECT is(act.version('s'), -1, 'stream s has no events');

-- Closed streams
SELECT lives_ok($$SELECT * FROM act.truncate('[{"stream": "order-3"}]')$$, 'close order-3 with a tombstone');
SELECT throws_ok($$SELECT * FROM act.commit('order-3', '[{"name": "A"}]')$$, '55000', 'stream "order-3" is closed',
  'a commit to a closed stream');
SELECT throws_ok($$SELECT * FROM act.commit('order-3', '[]')$$, '55000', 'stream "order-3" is closed',
  'even with an empty list');
SELECT throws_ok($$SELECT * FROM act.commit('order-3', '[{"name": "A"}]', '{}', 7)$$, '55000', 'stream "order-3" is closed',
  'even with a stale expected version');
SELECT is(act.version('order-3'), 0, 'the closed stream holds only its tombstone');

-- Large batches use one statement and stay ordered
SELECT is((SELECT count(*) FROM act.commit('bulk', (SELECT jsonb_agg(jsonb_build_object('name', 'E', 'data', jsonb_build_object('i', i))) FROM generate_series(1, 500) i))),
  500::bigint, 'a 500-event commit');
SELECT ok((SELECT bool_and((data ->> 'i')::int = version + 1) FROM act.events WHERE stream = 'bulk'), 'batch order = version order');

-- act.commit writes rows and index entries without an INSERT statement:
-- what it returns is what is stored, and every index finds the rows.
SELECT results_eq('SELECT * FROM c1 ORDER BY id',
  $$SELECT e.* FROM act.events e JOIN c1 USING (id) ORDER BY e.id$$, 'the returned rows are the stored rows');
SELECT is((SELECT max(version) FROM act.commit('indexed', '[{"name": "__snapshot__", "data": {"n": 1}}, {"name": "Seen"}]',
  '{"correlation": "c-indexed"}')), 1, 'a snapshot event and another');
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
SELECT is((SELECT count(*) FROM act.events WHERE meta ->> 'correlation' = 'c-indexed'), 2::bigint,
  'the correlation index has the committed rows');
SELECT is((SELECT count(*) FROM act.events WHERE stream = 'indexed' AND name = '__snapshot__'), 1::bigint,
  'the snapshot index has the snapshot event');
SELECT is((SELECT count(*) FROM act.events WHERE id IN (SELECT id FROM c1)), 3::bigint, 'the id index has the committed rows');
RESET enable_seqscan;
RESET enable_bitmapscan;

-- Triggers on act.events fire: with one, act.commit inserts through an INSERT statement.
CREATE TEMP TABLE seen_by_trigger (id bigint, version int);
CREATE FUNCTION pg_temp.record_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO seen_by_trigger VALUES (NEW.id, NEW.version);
  RETURN NEW;
END $$;
CREATE TRIGGER record_event AFTER INSERT ON act.events FOR EACH ROW EXECUTE FUNCTION pg_temp.record_event();
CREATE TEMP TABLE c_trigger AS SELECT * FROM act.commit('triggered', '[{"name": "One"}, {"name": "Two"}]');
SELECT results_eq('SELECT id, version FROM seen_by_trigger ORDER BY id', 'SELECT id, version FROM c_trigger ORDER BY id',
  'a row trigger on act.events sees every committed event');
DROP TRIGGER record_event ON act.events;
SELECT results_eq($$SELECT events, valid FROM act.verify('triggered')$$, $$VALUES (2::bigint, true)$$,
  'events inserted through the INSERT statement chain like the others');

-- A conflict and a closed stream carry their fields as a JSON DETAIL, for
-- programs that must not parse the English message.
CREATE FUNCTION pg_temp.detail_of(statement text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  detail text;
BEGIN
  EXECUTE statement;
  RETURN NULL;
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
  RETURN detail::jsonb;
END $$;
SELECT count(*) FROM act.commit('detail-1', '[{"name": "A"}, {"name": "B"}]');
SELECT is(pg_temp.detail_of($$SELECT * FROM act.commit('detail-1', '[{"name": "C"}]', '{}', 0)$$),
  '{"stream": "detail-1", "expected": 0, "actual": 1}'::jsonb, 'a conflict''s DETAIL: stream, expected, actual');
SELECT is(pg_temp.detail_of($$SELECT * FROM act.commit('detail-"1', '[{"name": "C"}]', '{}', 3)$$),
  '{"stream": "detail-\"1", "expected": 3, "actual": -1}'::jsonb, 'the stream name escaped as JSON');
SELECT count(*) FROM act.truncate('[{"stream": "detail-1"}]');
SELECT is(pg_temp.detail_of($$SELECT * FROM act.commit('detail-1', '[{"name": "C"}]')$$),
  '{"stream": "detail-1"}'::jsonb, 'a closed stream''s DETAIL names it');

SELECT * FROM finish();
ROLLBACK;
