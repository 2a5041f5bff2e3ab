-- Strict input: a key a function does not know is an error (22023) naming
-- the key and the argument, never a default; option values are typed
-- strictly; a watermark no read could have reached is refused. Every
-- refused call leaves the tables as they were.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT count(*) FROM act.commit('keep', '[{"name": "Opened"}, {"name": "Noted"}]');
SELECT count(*) FROM act.commit('mailer-src', '[{"name": "Signed"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "mailer", "source": "mailer-src"}, {"stream": "audit"},
                                     {"stream": "by-pattern", "source": "^mailer-"}]');

-- 1. Events: only name, data and pii.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('orders-1', '[{"name": "Placed", "payload": {"sku": "A1"}}]')$$,
  '22023', 'event 0 of stream "orders-1": unknown key "payload" (known: name, data, pii, tags)', 'an event with "payload"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('orders-1', '[{"name": "A"}, {"name": "B", "Data": {}}]')$$,
  '22023', 'event 1 of stream "orders-1": unknown key "Data"%', 'a second event with "Data"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('orders-1', '[{"nme": "Placed"}]')$$,
  '22023', 'event 0 of stream "orders-1": unknown key "nme"%', 'a misspelt name is named as such');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('orders-1', '[{"name": "A", "data": {}, "pii": null, "x": 1}]')$$,
  '22023', '%unknown key "x"%', 'a fourth key beside the three known ones');
SELECT is((SELECT count(*) FROM act.commit('orders-1', '[{"name": "A", "data": {"k": 1}, "pii": {"email": "a@b"}}]')),
  1::bigint, 'name, data and pii together are accepted');

-- 2. Subscriptions and the correlator.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.subscribe('[{"stream": "r", "sorce": "e-2"}]')$$,
  '22023', 'subscriptions[0]: unknown key "sorce" (known: stream, source, names, priority, lane, correlated_at)',
  'a subscription with "sorce"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.subscribe('[{"stream": "r"}, {"stream": "s", "name": ["A"]}]')$$,
  '22023', 'subscriptions[1]: unknown key "name"%', 'a subscription with "name" for "names"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.subscribe('[]', NULL, '{"key": "k", "by": "w", "millis": 10, "ttl": 5}')$$,
  '22023', 'correlator: unknown key "ttl" (known: key, by, millis)', 'a correlator with "ttl"');

-- 3. Leases: their own keys and a claim row's columns, nothing else.
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w-1', 60000)), 3::bigint, 'three streams claimed');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.ack('[{"stream": "mailer", "by": "w-1", "at": 1, "att": 2}]')$$,
  '22023', 'leases[0]: unknown key "att"%', 'an ack with "att"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.ack('[{"stream": "mailer", "by": "w-1", "at": 1, "error": "x"}]')$$,
  '22023', 'leases[0]: unknown key "error"%', 'an ack with a block''s "error"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.block('[{"stream": "mailer", "by": "w-1", "error": "x", "due": 1}]')$$,
  '22023', 'leases[0]: unknown key "due"%', 'a block with an ack''s "due"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.block('[{"stream": "mailer", "by": "w-1", "eror": "x"}]')$$,
  '22023', 'leases[0]: unknown key "eror"%', 'a block with "eror"');
SELECT is((SELECT count(*) FROM act.ack((SELECT jsonb_agg(to_jsonb(c)) FROM act.query_streams('{"stream": "mailer", "stream_exact": true}') q,
             LATERAL (SELECT q.stream, q.source, q.at, q.leased_by AS by, q.retry, false AS lagging, q.lane) c))),
  1::bigint, 'a claim row passed back as it is is acknowledged');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "by-pattern", "by": "w-1", "at": -1}]')), 1::bigint, 'by-pattern released');

-- 4. Selectors and filters.
SELECT is(act.defer('["audit"]', now() + interval '1 hour'), 1, 'audit deferred');
SELECT * FROM pg_temp.refused($$SELECT act.reset('{"strem": "mailer"}')$$,
  '22023', 'selector: unknown key "strem" (known: stream, stream_exact, source, source_exact, blocked, lane, source_matches)',
  'reset with "strem" (it used to reset every subscription)');
SELECT * FROM pg_temp.refused($$SELECT act.unblock('{"stream": "mailer", "Lane": "x"}')$$,
  '22023', 'selector: unknown key "Lane"%', 'unblock with "Lane"');
SELECT * FROM pg_temp.refused($$SELECT act.prioritize('{"sorce": "mailer-src"}', 5)$$,
  '22023', 'selector: unknown key "sorce"%', 'prioritize with "sorce"');
SELECT * FROM pg_temp.refused($$SELECT act.defer('{"blokced": true}', now())$$,
  '22023', 'selector: unknown key "blokced"%', 'defer with "blokced"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_streams('{"blokced": true}')$$,
  '22023', 'filter: unknown key "blokced"%', 'query_streams with "blokced" (it used to list them all)');

-- 5. Truncate targets.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.truncate('[{"stream": "keep", "befor": "2999-01-01"}]')$$,
  '22023', 'targets[0]: unknown key "befor" (known: stream, snapshot, meta, before, max_id)',
  'truncate with "befor" (it used to delete and close the stream)');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.truncate('[{"stream": "other"}, {"stream": "keep", "snapshto": {}}]')$$,
  '22023', 'targets[1]: unknown key "snapshto"%', 'a second target with "snapshto": the first is not truncated either');
SELECT is(act.version('keep'), 1, 'keep still has its two events');

-- 6. query_stats: unknown keys and strictly typed options.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('{"stream": "keep", "exact": true}')$$,
  '22023', 'streams: unknown key "exact" (known: stream, stream_exact)', 'streams with "exact"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"cuont": true}')$$,
  '22023', 'options: unknown key "cuont"%', 'options with "cuont"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"count": "yes"}')$$,
  '22023', 'options.count must be a boolean (true or false), not string', 'count "yes"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"tail": 1}')$$,
  '22023', 'options.tail must be a boolean (true or false), not number', 'tail 1');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"names": "true"}')$$,
  '22023', 'options.names must be a boolean%', 'names "true"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"before": "5"}')$$,
  '22023', 'options.before must be an integer, not string', 'before "5"');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"before": 2.5}')$$,
  '22023', 'options.before must be an integer, not 2.5', 'before 2.5');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"limit": true}')$$,
  '22023', 'options.limit must be an integer, not boolean', 'limit true');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"limit": 3000000000}')$$,
  '22023', 'options.limit must be 0 (no limit) to 2147483647, not 3000000000', 'limit beyond int');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"exclude": [null]}')$$,
  '22023', 'options.exclude must hold only event names (JSON strings)', 'exclude [null] (it used to return nothing)');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"exclude": "Noted"}')$$,
  '22023', 'options.exclude must be an array of event names, not string', 'exclude as a string');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["keep"]', '{"after": 5}')$$,
  '22023', 'options.after must be a stream name (a JSON string), not number', 'after 5');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('{"stream": "keep", "stream_exact": "yes"}')$$,
  '22023', 'streams.stream_exact must be a boolean%', 'stream_exact "yes"');
SELECT is((SELECT count FROM act.query_stats('["keep"]', '{"count": true, "tail": false, "before": 100, "limit": 1, "exclude": ["X"]}')),
  2::bigint, 'well-typed options still work');
SELECT is((SELECT count(*) FROM act.query_stats('["keep"]', '{"count": null, "exclude": null}')), 1::bigint,
  'null options read as absent');

-- 7. query_stats filter object: a pattern unless stream_exact is true.
SELECT is((SELECT array_agg(stream ORDER BY stream) FROM act.query_stats('{"stream": "^(keep|mailer-src)$"}')),
  ARRAY['keep', 'mailer-src'], '{"stream": p} is a regex by default');
SELECT is((SELECT count(*) FROM act.query_stats('{"stream": "^(keep|mailer-src)$", "stream_exact": true}')), 0::bigint,
  'and exact with stream_exact true');
SELECT is((SELECT array_agg(stream) FROM act.query_stats('{"stream": "keep", "stream_exact": true}')), ARRAY['keep'],
  'an exact name with stream_exact true');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('{"stream": "(unclosed"}')$$,
  '2201B', 'streams.stream is not a valid regular expression: %', 'an invalid pattern in query_stats');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('{"stream": "^nothing-matches("}')$$,
  '2201B', NULL, 'an invalid pattern is refused even when no stream could match');

-- 8. Watermarks no read could have reached (act.horizon() and, for a
--    literal source, that stream's head).
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w-2', 60000)), 2::bigint, 'two streams claimed again');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.ack('[{"stream": "by-pattern", "by": "w-2", "at": %s}]')$$, act.horizon() + 1),
  '22023', 'leases: at % for stream "by-pattern" is beyond act.horizon() (%): no read could have reached it',
  'an ack one past the horizon (pattern source)');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.ack('[{"stream": "mailer", "by": "w-2", "at": %s}]')$$, act.horizon() + 1000),
  '22023', 'leases: at % for stream "mailer" is beyond act.horizon()%', 'an ack far past the horizon (literal source)');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.ack('[{"stream": "nobody", "by": "w-2", "at": %s}]')$$, act.horizon() + 1),
  '22023', '%beyond act.horizon()%', 'an ack past the horizon for a stream with no subscription');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.ack('[{"stream": "mailer", "by": "w-2", "at": 0}, {"stream": "by-pattern", "by": "w-2", "at": %s}]')$$, act.horizon() + 1),
  '22023', '%"by-pattern"%', 'one bad entry refuses the whole ack');
SELECT is((SELECT count(*) FROM act.ack(format('[{"stream": "by-pattern", "by": "w-2", "at": %s}]', act.horizon())::jsonb)),
  1::bigint, 'an ack at the horizon is accepted');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "mailer", "by": "w-2", "at": -1}]')), 1::bigint,
  'a rewind is accepted');

-- 9. A regex in act.query's stream: the error names the argument, no internal statement.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query('(unclosed', stream_exact => false)$$,
  '2201B', 'invalid regular expression in stream: %', 'an invalid pattern in act.query');
SELECT unalike(pg_temp.outcome($$SELECT * FROM act.query('(unclosed', stream_exact => false)$$), '%SELECT%',
  'the error shows no internal statement');

-- 10. act.commit's expected_version as bigint (JDBC setLong), int and untyped.
SELECT is((SELECT version FROM act.commit('keep', '[{"name": "Noted"}]', expected_version => 1::bigint)), 2,
  'expected_version as bigint');
SELECT is((SELECT version FROM act.commit('keep', '[{"name": "Noted"}]', '{}', 2::int)), 3, 'as int');
SELECT is((SELECT version FROM act.commit('keep', '[{"name": "Noted"}]', '{}', '3')), 4, 'as an untyped literal');
SELECT is((SELECT version FROM act.commit('keep', '[{"name": "Noted"}]', '{}', 4::smallint)), 5, 'as smallint');
SELECT throws_ok($$SELECT * FROM act.commit('keep', '[{"name": "Noted"}]', '{}', 1::bigint)$$, '40001',
  'concurrency conflict on stream "keep": expected version 1, actual version 5', 'a stale bigint is a conflict');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('keep', '[{"name": "Noted"}]', '{}', 3000000000::bigint)$$,
  '22023', 'expected_version for stream "keep" must be -1 to 2147483647, not 3000000000', 'a bigint beyond int4');
SELECT is((SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'act' AND p.proname = 'commit'), 1::bigint, 'one act.commit: no call is ambiguous');

-- 11. Smaller things: defer with NULL clears a deferral; re-subscribing with
--     other names keeps the first ones (the NOTICE that says so: isolation
--     spec subscribe_notice).
SELECT is((SELECT deferred_at IS NOT NULL FROM act.subscriptions WHERE stream = 'audit'), true, 'audit is deferred');
SELECT is(act.defer('["audit"]', NULL), 1, 'defer(selector, NULL) clears one deferral');
SELECT is((SELECT deferred_at FROM act.subscriptions WHERE stream = 'audit'), NULL, 'audit is no longer deferred');
SELECT is(act.defer('["audit"]', NULL), 0, 'clearing again changes nothing');
SELECT lives_ok($$SELECT * FROM act.subscribe('[{"stream": "mailer", "source": "mailer-src", "names": ["Other"]}]')$$,
  're-subscribing with other names still succeeds');
SELECT is((SELECT names FROM act.subscriptions WHERE stream = 'mailer'), NULL, 'and keeps the first names');

SELECT * FROM finish();
ROLLBACK;
