-- act.release: drops the leases of the selected streams and nothing else, so
-- another worker claims them at once and resumes at the same watermark.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT has_function('act', 'release', ARRAY['jsonb'], 'act.release(selector)');
SELECT is(prosecdef, true, 'act.release is SECURITY DEFINER') FROM pg_proc WHERE oid = 'act.release(jsonb)'::regprocedure;
SELECT is(proconfig, ARRAY['search_path=pg_catalog, pg_temp'], 'with a pinned search_path')
  FROM pg_proc WHERE oid = 'act.release(jsonb)'::regprocedure;

SELECT count(*) FROM act.commit('order-1', '[{"name": "Placed"}, {"name": "Paid"}]');
SELECT count(*) FROM act.commit('order-2', '[{"name": "Placed"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "mailer", "source": "order-1", "lane": "l"},
                                     {"stream": "ledger", "source": "order-2", "lane": "l"},
                                     {"stream": "audit", "source": "order-1", "lane": "other"}]');

-- w1 handles mailer's first event, then claims mailer and ledger again.
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w1', 60000, 'l')), 2::bigint, 'w1 leases mailer and ledger');
SELECT is((SELECT at FROM act.ack('[{"stream": "mailer", "by": "w1", "at": 1}]')), 1::bigint, 'w1 acks mailer at 1');
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w1', 60000, 'l')), 1::bigint, 'w1 leases mailer again (ledger is still its own)');
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w2', 60000, 'l')), 0::bigint, 'w2 finds both leased');

CREATE TEMP TABLE before AS SELECT * FROM act.subscriptions;

-- release frees the lease at once and keeps everything else.
SELECT is(act.release('["mailer"]'), 1, 'release by name counts the lease it dropped');
SELECT results_eq($$SELECT leased_by, leased_until FROM act.subscriptions WHERE stream = 'mailer'$$,
  $$VALUES (NULL::text, NULL::timestamptz)$$, 'the lease is gone');
SELECT results_eq($$SELECT at, retry, blocked, error, deferred_at, correlated_at, priority, lane, source FROM act.subscriptions WHERE stream = 'mailer'$$,
  $$SELECT at, retry, blocked, error, deferred_at, correlated_at, priority, lane, source FROM before WHERE stream = 'mailer'$$,
  'watermark, retry, block, deferral, mark, priority and lane stay');
SELECT ok((SELECT count(*) = 0 FROM (SELECT * FROM act.subscriptions WHERE stream <> 'mailer'
                                     EXCEPT SELECT * FROM before WHERE stream <> 'mailer') changed),
  'the other rows are untouched');
SELECT results_eq($$SELECT stream, at, by, retry FROM act.claim(10, 0, 'w2', 60000, 'l')$$,
  $$SELECT 'mailer'::text, 1::bigint, 'w2'::text, retry + 1 FROM before WHERE stream = 'mailer'$$,
  'w2 claims mailer at once, at its watermark (the grant counts as another attempt)');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "mailer", "by": "w1", "at": 2}]')), 0::bigint,
  'the old holder''s ack is dropped');
SELECT results_eq($$SELECT at, leased_by FROM act.subscriptions WHERE stream = 'mailer'$$, $$VALUES (1::bigint, 'w2'::text)$$,
  'and moves nothing');
SELECT is((SELECT at FROM act.ack('[{"stream": "mailer", "by": "w2", "at": 2}]')), 2::bigint, 'the new holder acks');

-- Only held leases count; a blocked row stays blocked, a deferred one deferred.
SELECT is(act.release('["mailer", "nope"]'), 0, 'a row without a lease, an unknown name: nothing to release');
SELECT is(act.release('[]'), 0, 'an empty list releases nothing');
SELECT is((SELECT count(*) FROM act.block('[{"stream": "ledger", "by": "w1", "error": "boom"}]')), 1::bigint,
  'w1 blocks ledger (block keeps the lease)');
SELECT is(act.release('{"blocked": true, "lane": "l"}'), 1, 'release by filter');
SELECT results_eq($$SELECT blocked, error, leased_by, at FROM act.subscriptions WHERE stream = 'ledger'$$,
  $$VALUES (true, 'boom'::text, NULL::text, -1::bigint)$$, 'ledger stays blocked with its error and watermark');
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w3', 60000, 'l')), 0::bigint, 'a blocked row is still not claimable');
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w3', 60000, 'other')), 1::bigint, 'w3 leases audit');
SELECT is(act.defer('["audit"]', now() + interval '1 hour'), 1, 'audit deferred (defer keeps the lease)');
SELECT is(act.release('{"stream": "^au", "source": "order-1", "source_exact": true}'), 1, 'release by stream regex and source');
SELECT results_eq($$SELECT deferred_at, leased_by FROM act.subscriptions WHERE stream = 'audit'$$,
  $$VALUES (now() + interval '1 hour', NULL::text)$$, 'audit stays deferred');

-- Bad input: refused, nothing released.
UPDATE act.subscription_rows SET leased_by = 'w4', leased_until = now() + interval '1 minute' WHERE stream = 'mailer';
SELECT * FROM pg_temp.refused($$SELECT act.release('{"streem": "mailer"}')$$, '22023', '%unknown key "streem"%',
  'a typo''d selector key');
SELECT * FROM pg_temp.refused($$SELECT act.release(NULL)$$, '22004', 'selector must not be null', 'a NULL selector');
SELECT is((SELECT leased_by FROM act.subscriptions WHERE stream = 'mailer'), 'w4', 'the lease is still held');

SELECT * FROM finish();
ROLLBACK;
