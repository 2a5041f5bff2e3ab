-- The hash chain: golden vector, recomputation, tamper detection, truncate anchors.
BEGIN;
SELECT * FROM no_plan();

SELECT is(act.event_hash('\x0000000000000000000000000000000000000000000000000000000000000000', 'order-1', 0, 'Placed',
                         '{"sku": "A1", "qty": 2}', '{"correlation": "c-1"}', '2026-01-01 00:00:00+00'),
  '\x6d99803e26d5ec7405fdd278877d611321f8fdbe84f7d1e4f9da4b61a9bcf9d8'::bytea,
  'the golden vector of docs/hash-chain.md (same as the core unit test)');
SELECT is(act.event_hash('\x6d99803e26d5ec7405fdd278877d611321f8fdbe84f7d1e4f9da4b61a9bcf9d8', 'order-1', 1, 'Shipped',
                         '{}', '{}', '2026-01-01 00:00:00.000001+00'),
  '\x93e5867fe4bf5371210522d253e7c62313dc908a549a0f5c87532a9453893c56'::bytea, 'the chained golden vector');
SELECT throws_ok($$SELECT act.event_hash('\x00', 's', 0, 'n', '{}', '{}', now())$$, '22023', 'prev must be 32 bytes, not 1',
  'prev must be 32 bytes');
SELECT throws_ok($$SELECT act.event_hash('\x0000000000000000000000000000000000000000000000000000000000000000', 's', 0, 'n', '{}', '{}', 'infinity')$$,
  '22008', 'created must be a finite timestamp', 'created must be finite');

SELECT count(*) FROM act.commit('acct-1', '[{"name": "Opened", "data": {"owner": "ann"}}, {"name": "Deposited", "data": {"amount": 10}}]', '{"correlation": "x"}');
SELECT count(*) FROM act.commit('acct-1', '[{"name": "Deposited", "data": {"amount": 5}}, {"name": "Withdrawn", "data": {"amount": 3}}, {"name": "Deposited", "data": {"amount": 1}}]');
SELECT count(*) FROM act.commit('acct-2', '[{"name": "Opened"}]');

SELECT ok((SELECT bool_and(e.hash = act.event_hash(
             coalesce((SELECT p.hash FROM act.events p WHERE p.stream = e.stream AND p.version = e.version - 1),
                      '\x0000000000000000000000000000000000000000000000000000000000000000'),
             e.stream, e.version, e.name, e.data, e.meta, e.created)) FROM act.events e),
  'commit stored SHA-256(prev || encode(event)) for every event');
SELECT results_eq('SELECT stream, events, valid, first_bad_version FROM act.verify()',
  $$VALUES ('acct-1', 5::bigint, true, NULL::int), ('acct-2', 1::bigint, true, NULL::int)$$, 'a fresh log verifies');
SELECT results_eq($$SELECT stream, events, valid FROM act.verify('acct-2')$$, $$VALUES ('acct-2', 1::bigint, true)$$, 'one stream');
SELECT is((SELECT count(*) FROM act.verify('nope')), 0::bigint, 'an unknown stream gives no row');

SELECT is(act.forget_pii('acct-1'), 0::bigint, 'forget_pii on a stream without pii');
SELECT count(*) FROM act.commit('acct-3', '[{"name": "Opened", "pii": {"ssn": "123"}}, {"name": "Named", "pii": {"name": "Ann"}}, {"name": "Noted"}]');
SELECT is(act.forget_pii('acct-3'), 2::bigint, 'forget_pii clears the pii of every event');
SELECT is(act.forget_pii('acct-3'), 0::bigint, 'forget_pii is idempotent');
SELECT ok((SELECT valid FROM act.verify('acct-3')), 'forgetting pii keeps the chain valid');

-- Tampering: each case inside a savepoint, undone afterwards.
SAVEPOINT tamper;
UPDATE act.events SET data = '{"amount": 1000}' WHERE stream = 'acct-1' AND version = 3;
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (false, 3)$$, 'a changed payload');
ROLLBACK TO tamper;
UPDATE act.events SET meta = '{"correlation": "forged"}' WHERE stream = 'acct-1' AND version = 0;
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (false, 0)$$, 'a changed meta');
ROLLBACK TO tamper;
UPDATE act.events SET name = 'Withdrawn' WHERE stream = 'acct-1' AND version = 4;
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (false, 4)$$, 'a changed name (last event)');
ROLLBACK TO tamper;
UPDATE act.events SET created = created + interval '1 microsecond' WHERE stream = 'acct-1' AND version = 2;
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (false, 2)$$, 'a changed time');
ROLLBACK TO tamper;
UPDATE act.events SET hash = '\x00' WHERE stream = 'acct-1' AND version = 1;
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (false, 1)$$, 'a changed hash (even a short one)');
ROLLBACK TO tamper;
DELETE FROM act.events WHERE stream = 'acct-1' AND version = 2;
SELECT results_eq($$SELECT events, valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (4::bigint, false, 3)$$,
  'a deleted middle event: the first version after it');
ROLLBACK TO tamper;
DELETE FROM act.events WHERE stream = 'acct-1' AND version = 0;
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (false, 1)$$,
  'a deleted head without an anchor: the first remaining version');
ROLLBACK TO tamper;
UPDATE act.events SET version = version + 100 WHERE stream = 'acct-1' AND version >= 3;
UPDATE act.events SET version = version - 99 WHERE stream = 'acct-1' AND version >= 100;
INSERT INTO act.events (stream, version, name, data, hash) SELECT 'acct-1', 3, 'Deposited', '{"amount": 99}', hash FROM act.events WHERE stream = 'acct-1' AND version = 4;
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (false, 3)$$, 'an inserted middle event');
ROLLBACK TO tamper;
SELECT results_eq($$SELECT valid FROM act.verify()$$, $$VALUES (true), (true), (true)$$, 'after the rollbacks all is valid again');

-- Truncate keeps chains verifiable
SELECT count(*) FROM act.commit('acct-4', '[{"name": "A"}, {"name": "B"}, {"name": "__snapshot__", "data": {"n": 2}}, {"name": "C"}]');
SELECT results_eq($$SELECT deleted, version, name FROM act.truncate(format('[{"stream": "acct-4", "before": "%s"}]', clock_timestamp())::jsonb)$$,
  $$VALUES (2::bigint, 2, '__snapshot__')$$, 'a windowed truncate drops the events before the snapshot');
SELECT results_eq($$SELECT events, valid, first_bad_version FROM act.verify('acct-4')$$, $$VALUES (2::bigint, true, NULL::int)$$,
  'the stream verifies against its recorded anchor');
SAVEPOINT anchor;
DELETE FROM act.stream_anchors WHERE stream = 'acct-4';
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-4')$$, $$VALUES (false, 2)$$,
  'without the anchor the head deletion shows');
ROLLBACK TO anchor;
SELECT count(*) FROM act.truncate('[{"stream": "acct-4", "snapshot": {"n": 3}}]');
SELECT results_eq($$SELECT events, valid FROM act.verify('acct-4')$$, $$VALUES (1::bigint, true)$$, 'a full truncate restarts the chain');
SELECT is((SELECT count(*) FROM act.stream_anchors WHERE stream = 'acct-4'), 0::bigint, 'and drops the anchor');
SELECT count(*) FROM act.commit('acct-4', '[{"name": "D"}]');
SELECT results_eq($$SELECT events, valid FROM act.verify('acct-4')$$, $$VALUES (2::bigint, true)$$, 'commits chain on from the seed');

-- act.verify renders the stored jsonb itself (extension/plumbing/jsonb_text.cpp);
-- act.event_hash uses Postgres's own text. Events whose hashes act.event_hash
-- computed must verify, whatever their data and meta.
CREATE FUNCTION pg_temp.rechain(chain text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  prev bytea := '\x0000000000000000000000000000000000000000000000000000000000000000';
  e record;
BEGIN
  FOR e IN SELECT * FROM act.events WHERE stream = chain ORDER BY version LOOP
    prev := act.event_hash(prev, e.stream, e.version, e.name, e.data, e.meta, e.created);
    UPDATE act.events SET hash = prev WHERE id = e.id;
  END LOOP;
END $$;
-- Puts each value as the data (and the next one as the meta) of one event of
-- a fresh stream, chained by act.event_hash.
CREATE FUNCTION pg_temp.chain_of(chain text, vals jsonb[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM count(*) FROM act.commit(chain, (SELECT jsonb_agg(jsonb_build_object('name', 'Case')) FROM unnest(vals)));
  UPDATE act.events e SET data = vals[e.version + 1], meta = vals[(e.version + 1) % cardinality(vals) + 1]
   WHERE e.stream = chain;
  PERFORM pg_temp.rechain(chain);
END $$;

CREATE TEMP TABLE json_cases (n serial, value jsonb);
INSERT INTO json_cases (value) VALUES
  ('{}'), ('[]'), ('null'), ('true'), ('false'), ('0'), ('"a string at the root"'), ('""'), ('[[]]'), ('{"": {}}'),
  ('{"a": [], "b": {}, "c": [{}], "d": [[], {}]}'),
  ('[1, -1, 0.5, -0.5, 1.50, 100, 1e2, 1E-7, 0.00, -0.00, 10000, 9999, 99990000, 0.0001, 123456789012345678901234567890.123456789]'),
  ('[1e300, -1e-300, 1.000000000000000000000000000001, 100000000, 0.1000, 12345678.87654321, 65536, 32767.5]'),
  (jsonb_build_array(pi()::numeric, (2::numeric ^ 200), -(1::numeric / 3), 1::numeric(1000, 500))),
  ('["quote \" backslash \\ slash / tab \t newline \n return \r backspace \b formfeed \f"]'),
  (jsonb_build_array((SELECT string_agg(chr(c), '') FROM generate_series(1, 127) c))),
  (jsonb_build_array((SELECT string_agg(chr(c) || 'x', '') FROM generate_series(1, 31) c))),
  ('["ä ö ü ß", "日本語", "😀👍🏽", "e\u0301", "\u00a0\u2028\u2029", "\ufeff", "\u007f\u0080\u00ff"]'),
  ('{"\u0001key\u001f": "\"", "tab\tkey": ["\\"], "é": "é"}'),
  -- a byte to escape on each side of the 16-byte steps, and a value ending in a string
  (jsonb_build_array(repeat('a', 15) || '"', repeat('a', 16) || '"', repeat('a', 17) || '\', repeat('b', 31) || E'\n',
                     repeat('c', 32) || E'\x01', repeat('d', 33))),
  (jsonb_build_object('k', repeat('é', 10))), (to_jsonb(repeat('z', 15))), (to_jsonb(repeat('z', 16))),
  (to_jsonb(repeat('z', 17))), (to_jsonb(E'\n' || repeat('z', 20))), (to_jsonb(repeat('z', 20) || E'\n')),
  -- more than 32 members or elements: the offsets stored every 32 entries
  ((SELECT jsonb_object_agg('key' || i, i) FROM generate_series(1, 100) i)),
  ((SELECT jsonb_agg(CASE WHEN i % 3 = 0 THEN to_jsonb(i) WHEN i % 3 = 1 THEN to_jsonb('s' || i) ELSE jsonb_build_object('i', i) END)
      FROM generate_series(1, 70) i)),
  ((SELECT jsonb_object_agg(repeat('k', i), jsonb_build_array(i, repeat('v', i), NULL, true)) FROM generate_series(1, 40) i)),
  ('{"aa": 1, "b": 2, "a": 3, "ab": 4, "ba": 5, "c": {"z": 1, "yy": 2, "x": [3, {"w": null}]}}'),
  ((repeat('[{"a": ', 300) || '1' || repeat('}]', 300))::jsonb),
  -- stored compressed, and out of line
  (jsonb_build_object('big', repeat('compressible "text" ', 5000))),
  ((SELECT jsonb_agg(md5(i::text) || E'\t' || i) FROM generate_series(1, 20000) i));
SELECT pg_temp.chain_of('json-cases', (SELECT array_agg(value ORDER BY n) FROM json_cases));
SELECT results_eq($$SELECT events, valid, first_bad_version FROM act.verify('json-cases')$$,
  $$SELECT count(*), true, NULL::int FROM json_cases$$,
  'canonical text as Postgres writes it: scalars, escapes, unicode, numbers, nesting, long and toasted values');
SELECT ok((SELECT pg_column_compression(data) IS NOT NULL FROM act.events WHERE stream = 'json-cases' AND data ? 'big'),
  'one of them is stored compressed');

-- Random values: strings of random code points, numbers of random scale, nesting.
SELECT setseed(0.17);
CREATE FUNCTION pg_temp.random_json(depth int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  pick int := floor(random() * CASE WHEN depth > 3 THEN 5 ELSE 8 END);
BEGIN
  CASE pick
    WHEN 0 THEN RETURN 'null';
    WHEN 1 THEN RETURN to_jsonb(random() < 0.5);
    WHEN 2 THEN RETURN to_jsonb(round(((random() - 0.5) * 10 ^ floor(random() * 30 - 10))::numeric, floor(random() * 12)::int));
    WHEN 3, 4 THEN RETURN to_jsonb((SELECT coalesce(string_agg(chr(CASE WHEN random() < 0.3 THEN 1 + floor(random() * 127)
                                                          WHEN random() < 0.5 THEN 128 + floor(random() * 1900)
                                                          ELSE 57344 + floor(random() * 70000) END::int), ''), '')
                                      FROM generate_series(1, floor(random() * 40)::int)));
    WHEN 5 THEN RETURN (SELECT coalesce(jsonb_agg(pg_temp.random_json(depth + 1)), '[]')
                          FROM generate_series(1, floor(random() * 6)::int));
    ELSE RETURN (SELECT coalesce(jsonb_object_agg(left(md5(random()::text), floor(random() * 8)::int), pg_temp.random_json(depth + 1)), '{}')
                   FROM generate_series(1, floor(random() * 6)::int));
  END CASE;
END $$;
SELECT pg_temp.chain_of('json-random', (SELECT array_agg(pg_temp.random_json(0)) FROM generate_series(1, 2000)));
SELECT results_eq($$SELECT events, valid, first_bad_version FROM act.verify('json-random')$$,
  $$VALUES (2000::bigint, true, NULL::int)$$, '2,000 random values render as Postgres renders them');

-- Tampering with what the renderer reads: one character, one digit of scale, one key.
SAVEPOINT json_tamper;
UPDATE act.events SET data = '[1, -1, 0.5, -0.5, 1.5, 100, 1e2, 1E-7, 0.00, -0.00, 10000, 9999, 99990000, 0.0001, 123456789012345678901234567890.123456789]'
 WHERE stream = 'json-cases' AND version = 11;
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('json-cases')$$, $$VALUES (false, 11)$$,
  'a number''s scale is hashed (1.50 is not 1.5)');
ROLLBACK TO json_tamper;
UPDATE act.events SET data = jsonb_set(data, '{0}', '"quote \" backslash \\ slash / tab \t newline \n return \r backspace \b formfeed \f "')
 WHERE stream = 'json-cases' AND version = 14;
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('json-cases')$$, $$VALUES (false, 14)$$,
  'one character of a string');
ROLLBACK TO json_tamper;
UPDATE act.events SET meta = meta - 'big' || '{"bif": null}' WHERE stream = 'json-cases' AND meta ? 'big';
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('json-cases')$$,
  $$SELECT false, version FROM act.events WHERE stream = 'json-cases' AND meta ? 'bif'$$, 'a key of a toasted meta');
ROLLBACK TO json_tamper;
UPDATE act.events SET data = data || '["x"]' WHERE stream = 'json-cases' AND version = (SELECT count(*) - 1 FROM json_cases);
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('json-cases')$$,
  $$SELECT false, count(*)::int - 1 FROM json_cases$$, 'an element appended to an out-of-line value');
ROLLBACK TO json_tamper;

-- Heads and gaps
UPDATE act.events SET version = version + 100 WHERE stream = 'acct-1' AND version >= 3;
UPDATE act.events SET version = version - 99 WHERE stream = 'acct-1' AND version >= 100;
SELECT results_eq($$SELECT events, valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (5::bigint, false, 4)$$,
  'a version gap without a missing event');
SELECT pg_temp.rechain('acct-1');
SELECT results_eq($$SELECT events, valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (5::bigint, false, 4)$$,
  'a version gap in a chain rehashed over it');
ROLLBACK TO json_tamper;
INSERT INTO act.stream_anchors VALUES ('acct-1', 2, (SELECT hash FROM act.events WHERE stream = 'acct-1' AND version = 1));
DELETE FROM act.events WHERE stream = 'acct-1' AND version < 2;
SELECT results_eq($$SELECT events, valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (3::bigint, true, NULL::int)$$,
  'a deleted head verifies against an anchor recorded for its first remaining version');
UPDATE act.stream_anchors SET version = 1 WHERE stream = 'acct-1';
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (false, 2)$$,
  'not against an anchor for another version');
UPDATE act.stream_anchors SET version = 2, prev = '\x00' WHERE stream = 'acct-1';
SELECT results_eq($$SELECT valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (false, 2)$$,
  'nor against a short anchor');
ROLLBACK TO json_tamper;
UPDATE act.events SET hash = '\x00' WHERE stream = 'acct-1' AND version = 1;
UPDATE act.events SET data = '{"amount": 99}' WHERE stream = 'acct-1' AND version = 3;
SELECT results_eq($$SELECT events, valid, first_bad_version FROM act.verify('acct-1')$$, $$VALUES (5::bigint, false, 1)$$,
  'several bad events: the first is reported');
ROLLBACK TO json_tamper;
DELETE FROM act.events WHERE stream = 'acct-2';
SELECT is((SELECT count(*) FROM act.verify('acct-2')), 0::bigint, 'a stream whose events are all gone has no row');
SELECT ok(NOT EXISTS (SELECT FROM act.verify() WHERE stream = 'acct-2'), 'not in the whole log either');
ROLLBACK TO json_tamper;
UPDATE act.events SET created = 'infinity' WHERE stream = 'acct-3' AND version = 1;
SELECT throws_ok($$SELECT * FROM act.verify()$$, '22008', 'created must be a finite timestamp',
  'an infinite time cannot be hashed: an error, as act.event_hash gives');
SELECT results_eq($$SELECT stream, valid FROM act.verify('acct-1')$$, $$VALUES ('acct-1', true)$$,
  'one stream is checked without reading the others');
ROLLBACK TO json_tamper;

-- One stream reads only its own index entries.
CREATE TEMP TABLE scanned AS SELECT pg_stat_get_xact_tuples_returned('act.events_stream_version_key'::regclass) AS before;
SELECT count(*) FROM act.verify('acct-2');
SELECT is((SELECT pg_stat_get_xact_tuples_returned('act.events_stream_version_key'::regclass) - before FROM scanned), 1::bigint,
  'act.verify(stream) reads one index entry for a stream of one event');

-- The whole log in "C" order, whatever the database's collation orders first.
SELECT count(*) FROM unnest(ARRAY['b', 'B', 'a', '_a', 'ä', 'Z', 'a b', 'ab', '9']) s, LATERAL act.commit(s, '[{"name": "A"}]');
SELECT is((SELECT array_agg(v.stream ORDER BY v.n) FROM act.verify() WITH ORDINALITY AS v(stream, events, valid, bad, n)),
  (SELECT array_agg(stream ORDER BY stream COLLATE "C") FROM (SELECT DISTINCT stream FROM act.events) s),
  'one row per stream, in C order');
SELECT ok((SELECT bool_and(valid) FROM act.verify()), 'and every chain verifies');

-- A long stream: one edit deep inside it is found where it is.
SELECT count(*) FROM generate_series(0, 9) c,
  LATERAL act.commit('long', (SELECT jsonb_agg(jsonb_build_object('name', 'E', 'data', jsonb_build_object('i', c * 1000 + i)))
                                FROM generate_series(0, 999) i));
SELECT results_eq($$SELECT events, valid FROM act.verify('long')$$, $$VALUES (10000::bigint, true)$$, 'a stream of 10,000 events');
UPDATE act.events SET data = '{"i": -1}' WHERE stream = 'long' AND version = 7777;
SELECT results_eq($$SELECT events, valid, first_bad_version FROM act.verify('long')$$, $$VALUES (10000::bigint, false, 7777)$$,
  'an edit at version 7,777 of 10,000');

SELECT ok((SELECT l.lanname = 'c' AND p.prosecdef AND p.provolatile = 's' AND p.proconfig = ARRAY['search_path=pg_catalog, pg_temp']
             FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = 'act.verify(text)'::regprocedure),
  'act.verify is C, STABLE, SECURITY DEFINER with a pinned search_path (it plans no query: no jit or parallel settings)');
SELECT * FROM finish();
ROLLBACK;
