-- act.claim, act.ack, act.block: eligibility, frontiers, leases, retry, holders, due, bad input (docs/reference.md, "Subscriptions and the drain").
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT has_function('act', 'claim', ARRAY['integer', 'integer', 'text', 'integer', 'text'], 'act.claim signature');
SELECT has_function('act', 'ack', ARRAY['jsonb'], 'act.ack signature');
SELECT has_function('act', 'block', ARRAY['jsonb'], 'act.block signature');

-- History first (ids 1..10), so the rows below are under the horizon in
-- concurrent mode too; no subscription exists yet, so nothing is marked.
SELECT count(*) FROM act.commit('history', (SELECT jsonb_agg(jsonb_build_object('name', 'E')) FROM generate_series(1, 10)));
-- Rows set up directly (as the owner) to pin each rule.
INSERT INTO act.subscription_rows (stream, at, correlated_at, priority, lane) VALUES
  ('a', -1, 5, 0, 'default'), ('b', 3, 5, 0, 'default'), ('c', 4, 5, 9, 'default'),
  ('done', 5, 5, 0, 'default'), ('unmarked', -1, NULL, 0, 'default'), ('slow', 0, 5, 0, 'slow');
INSERT INTO act.subscription_rows (stream, at, correlated_at, blocked) VALUES ('blocked', 0, 5, true);
INSERT INTO act.subscription_rows (stream, at, correlated_at, deferred_at) VALUES ('later', 0, 5, now() + interval '1 hour');
INSERT INTO act.subscription_rows (stream, at, correlated_at, deferred_at) VALUES ('due', 0, 5, now() - interval '1 second');
INSERT INTO act.subscription_rows (stream, at, correlated_at, leased_by, leased_until) VALUES
  ('held', 0, 5, 'other', now() + interval '1 hour'), ('expired', 0, 5, 'other', now() - interval '1 second');

SELECT results_eq($$SELECT stream FROM act.claim(100, 0, 'w1', 60000) ORDER BY stream$$,
  ARRAY['a', 'b', 'c', 'due', 'expired', 'slow'],
  'claimable: not blocked, at < mark, lease free or expired, not deferred; NULL mark never');
SELECT results_eq($$SELECT stream, retry, leased_by FROM act.subscriptions WHERE leased_by = 'w1' ORDER BY stream$$,
  $$VALUES ('a'::text, 0, 'w1'::text), ('b', 0, 'w1'), ('c', 0, 'w1'), ('due', 0, 'w1'), ('expired', 0, 'w1'), ('slow', 0, 'w1')$$,
  'every grant increments retry and sets the lease');
SELECT ok((SELECT bool_and(leased_until = now() + interval '60 seconds') FROM act.subscriptions WHERE leased_by = 'w1'),
  'leased_until = now() + millis');
SELECT is((SELECT count(*) FROM act.claim(100, 100, 'w2', 60000)), 0::bigint, 'leased rows are not claimed again');
SELECT results_eq($$SELECT at, retry FROM act.subscriptions WHERE stream = 'a'$$, $$VALUES (-1::bigint, 0)$$,
  'claim leaves at alone');

-- Release everything, then look at frontiers and ordering.
UPDATE act.subscription_rows SET leased_by = NULL, leased_until = NULL;

-- millis runs from 0 to one hour. Rows are claimable here, so a refused
-- claim that leased anything would show in the digest.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim(10, 0, 'w3', 3600001)$$, '22023',
  'millis must be at most 3600000 (one hour), not 3600001', 'millis one above an hour');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim(10, 0, 'w3', 2147483647)$$, '22023',
  'millis must be at most 3600000 (one hour), not 2147483647', 'millis int4 max');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim(10, 0, 'w3', -1)$$, '22023',
  'millis must be 0 or more, not -1', 'millis -1');
SELECT results_eq($$SELECT stream FROM act.claim(1, 0, 'w3', 3600000)$$, ARRAY['c'], 'millis of exactly one hour is granted');
SELECT is((SELECT leased_until FROM act.subscriptions WHERE stream = 'c'), now() + interval '1 hour', 'the lease runs one hour');
UPDATE act.subscription_rows SET leased_by = NULL, leased_until = NULL;
SELECT results_eq($$SELECT stream, lagging FROM act.claim(1, 0, 'w3', 1000)$$, $$VALUES ('c'::text, true)$$,
  'lagging 1: priority first');
UPDATE act.subscription_rows SET leased_by = NULL, leased_until = NULL;
SELECT results_eq($$SELECT stream, lagging FROM act.claim(2, 0, 'w3', 1000) ORDER BY stream$$,
  $$VALUES ('a'::text, true), ('c', true)$$, 'lagging 2: one by priority (c), one fairness reserve by watermark (a)');
UPDATE act.subscription_rows SET leased_by = NULL, leased_until = NULL;
SELECT results_eq($$SELECT stream, lagging FROM act.claim(0, 1, 'w3', 1000)$$, $$VALUES ('c'::text, false)$$,
  'leading: the most advanced watermark first');
UPDATE act.subscription_rows SET leased_by = NULL, leased_until = NULL;
SELECT results_eq($$SELECT stream, lagging FROM act.claim(1, 1, 'w3', 1000)$$, $$VALUES ('c'::text, true)$$,
  'a stream chosen by both frontiers is returned once, lagging');
UPDATE act.subscription_rows SET leased_by = NULL, leased_until = NULL;
SELECT results_eq($$SELECT stream, lane FROM act.claim(10, 0, 'w3', 1000, 'slow')$$, $$VALUES ('slow'::text, 'slow'::text)$$,
  'a lane filter');
UPDATE act.subscription_rows SET priority = 0, leased_by = NULL, leased_until = NULL;
UPDATE act.subscription_rows SET at = 3 WHERE at < correlated_at;
SELECT results_eq($$SELECT stream FROM act.claim(1, 0, 'w3', 1000)$$, ARRAY['a'], 'ties are broken by stream');
SELECT is((SELECT count(*) FROM act.claim(0, 0, 'w3', 1000)), 0::bigint, 'zero counts claim nothing');

-- Leases, retries, expiry
UPDATE act.subscription_rows SET leased_by = NULL, leased_until = NULL, retry = -1;
DELETE FROM act.subscription_rows WHERE stream <> 'a';
SELECT is((SELECT retry FROM act.claim(1, 0, 'w1', 0)), 0, 'a 0 ms lease is granted (already expired)');
SELECT is((SELECT retry FROM act.claim(1, 0, 'w2', 0)), 1, 'an expired lease is re-claimable and counts against the retry budget');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "a", "by": "w1", "at": 5}]')), 0::bigint, 'a stale holder''s ack is dropped');
SELECT is((SELECT at FROM act.subscriptions WHERE stream = 'a'), 3::bigint, 'and changes nothing');
SELECT results_eq($$SELECT stream, source, at, by, retry, lagging, lane FROM act.ack((SELECT jsonb_agg(to_jsonb(c) || '{"at": 4}') FROM act.claim(1, 0, 'w4', 60000) c))$$,
  $$VALUES ('a'::text, NULL::text, 4::bigint, 'w4'::text, -1, true, 'default'::text)$$,
  'a claim row passed back with extra keys acks: at set, retry -1, lagging echoed');
SELECT results_eq($$SELECT at, retry, leased_by, leased_until, deferred_at FROM act.subscriptions WHERE stream = 'a'$$,
  $$VALUES (4::bigint, -1, NULL::text, NULL::timestamptz, NULL::timestamptz)$$, 'ack releases the lease');
SELECT count(*) FROM act.claim(1, 0, 'w5', 60000);
SELECT is((SELECT at FROM act.ack('[{"stream": "a", "by": "w5", "at": 1}]')), 1::bigint, 'ack sets at as given, even lower');

-- due: defer through ack
SELECT count(*) FROM act.claim(1, 0, 'w6', 60000);
SELECT is((SELECT count(*) FROM act.ack(format('[{"stream": "a", "by": "w6", "at": 2, "due": %s}]',
          floor(extract(epoch FROM now() + interval '1 hour') * 1000)::bigint)::jsonb)), 0::bigint,
  'a due entry is applied but not returned');
SELECT results_eq($$SELECT at, retry, leased_by, deferred_at FROM act.subscriptions WHERE stream = 'a'$$,
  $$VALUES (2::bigint, 0, NULL::text, date_trunc('milliseconds', now() + interval '1 hour'))$$,
  'due (epoch ms) defers, keeps retry, releases the lease');
SELECT is((SELECT count(*) FROM act.claim(1, 0, 'w7', 60000)), 0::bigint, 'a deferred stream is not claimable');
UPDATE act.subscription_rows SET deferred_at = NULL;
SELECT count(*) FROM act.claim(1, 0, 'w8', 60000);
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "a", "by": "w8", "at": 2, "retry": 7, "due": "2030-01-01T00:00:00Z"}]')), 0::bigint,
  'due as a timestamptz string');
SELECT results_eq($$SELECT retry, deferred_at FROM act.subscriptions WHERE stream = 'a'$$,
  $$VALUES (7, '2030-01-01T00:00:00Z'::timestamptz)$$, 'due with retry sets retry');

-- block
UPDATE act.subscription_rows SET deferred_at = NULL, retry = -1;
SELECT count(*) FROM act.claim(1, 0, 'w9', 60000);
SELECT is((SELECT count(*) FROM act.block('[{"stream": "a", "by": "nobody", "error": "x"}]')), 0::bigint, 'block by a non-holder does nothing');
SELECT results_eq($$SELECT stream, at, by, retry, error, lagging FROM act.block('[{"stream": "a", "by": "w9", "error": "boom", "at": 99, "lagging": true}]')$$,
  $$VALUES ('a'::text, 2::bigint, 'w9'::text, 0, 'boom'::text, true)$$, 'block returns the durable row (not the given at)');
SELECT results_eq($$SELECT blocked, error, leased_by FROM act.subscriptions WHERE stream = 'a'$$,
  $$VALUES (true, 'boom'::text, 'w9'::text)$$, 'block keeps the lease');
SELECT is((SELECT count(*) FROM act.block('[{"stream": "a", "by": "w9", "error": "again"}]')), 0::bigint, 're-blocking is a no-op');
SELECT is((SELECT at FROM act.ack('[{"stream": "a", "by": "w9", "at": 3}]')), 3::bigint, 'the holder can still ack after blocking');
SELECT results_eq($$SELECT blocked, leased_by FROM act.subscriptions WHERE stream = 'a'$$, $$VALUES (true, NULL::text)$$,
  'ack leaves the row blocked');
SELECT is((SELECT count(*) FROM act.claim(5, 5, 'w10', 1000)), 0::bigint, 'blocked rows are not claimed');

-- Bad input
SELECT throws_ok($$SELECT * FROM act.claim(-1, 0, 'w', 1000)$$, '22023', 'from_lagging must be 0 or more, not -1', 'negative lagging');
SELECT throws_ok($$SELECT * FROM act.claim(0, -2, 'w', 1000)$$, '22023', 'from_leading must be 0 or more, not -2', 'negative leading');
SELECT throws_ok($$SELECT * FROM act.claim(1, 0, 'w', -5)$$, '22023', 'millis must be 0 or more, not -5', 'negative millis');
SELECT throws_ok($$SELECT * FROM act.claim(1, 0, NULL, 1000)$$, '22004', 'by must not be null', 'NULL by');
SELECT throws_ok($$SELECT * FROM act.ack('{"stream": "a"}')$$, '22023', 'leases must be a JSON array, not an object', 'ack needs an array');
SELECT throws_ok($$SELECT * FROM act.ack('[{"stream": "a", "by": "w"}]')$$, '22023', 'leases[0].at is required', 'ack needs at');
SELECT throws_ok($$SELECT * FROM act.ack('[{"stream": "a", "by": "w", "at": "5"}]')$$, '22023', 'leases[0].at must be an integer, not a string', 'at must be a number');
SELECT throws_ok($$SELECT * FROM act.ack('[{"stream": "a", "by": "w", "at": 5, "due": "soon"}]')$$, '22007', NULL, 'a bad due timestamp');
SELECT throws_ok($$SELECT * FROM act.block('[{"stream": "a", "by": "w"}]')$$, '22023', 'leases[0].error is required', 'block needs an error');

SELECT * FROM finish();
ROLLBACK;
