-- The hash chain: golden vector, recomputation, tamper detection, truncate anchors.
BEGIN;
SELECT plan(28);

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

SELECT ok((SELECT 'jit=off' = ANY (proconfig) FROM pg_proc WHERE oid = 'act.verify(text)'::regprocedure),
  'act.verify runs without JIT (compiling its query cost more than it saved)');
SELECT * FROM finish();
ROLLBACK;
