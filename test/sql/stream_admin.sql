-- act.defer, act.reset, act.unblock, act.prioritize, act.query_streams: both selector forms, every filter, errors.
BEGIN;
SELECT * FROM no_plan();

INSERT INTO act.subscription_rows (stream, source, at, retry, correlated_at, priority, lane, blocked, error, leased_by, leased_until) VALUES
  ('proj-a', NULL,       5, 2, 9, 1, 'default', false, NULL,   'w1', now() + interval '1 hour'),
  ('proj-b', 'order-1',  3, 0, 9, 0, 'fast',    true,  'boom', 'w2', now() + interval '1 hour'),
  ('Proj-C', '^cart-',   -1, -1, 9, 0, 'fast',  false, NULL,   NULL, NULL),
  ('mail',   'order-1',  7, 4, 9, 2, 'default', true,  'bad',  NULL, NULL);

-- defer
SELECT is(act.defer('["proj-a", "proj-a", "nope"]', now() + interval '1 hour'), 1, 'defer by names: duplicates and unknown names count once/zero');
SELECT results_eq($$SELECT retry, deferred_at, leased_by FROM act.subscriptions WHERE stream = 'proj-a'$$,
  $$VALUES (-1, now() + interval '1 hour', 'w1'::text)$$, 'defer sets deferred_at, resets retry, keeps the lease');
SELECT is(act.defer('[]', now()), 0, 'an empty list defers nothing');
SELECT is(act.defer('{"lane": "fast"}', now() - interval '1 second'), 2, 'defer by filter');

-- prioritize
SELECT is(act.prioritize('{"stream": "^proj-"}', 5), 2, 'stream regex (case-sensitive) selects proj-a and proj-b');
SELECT is(act.prioritize('{"stream": "^proj-"}', 5), 0, 'rows already at the priority are not counted');
SELECT is(act.prioritize('{"stream": "proj-a", "stream_exact": true}', 0), 1, 'an exact stream; priority may go down');
SELECT is(act.prioritize('{"source": "order-1", "source_exact": true}', 3), 2, 'an exact source');
SELECT is(act.prioritize('{"source": "cart"}', 4), 1, 'a source regex matches only non-NULL sources');
SELECT is(act.prioritize('{"blocked": true, "lane": "default"}', 8), 1, 'blocked and lane filters');
SELECT is(act.prioritize('{}', 1), 4, 'an empty filter selects every row');

-- unblock
SELECT is(act.unblock('["proj-a", "proj-b"]'), 1, 'unblock counts only blocked rows');
SELECT results_eq($$SELECT blocked, error, retry, leased_by, deferred_at, at, correlated_at FROM act.subscriptions WHERE stream = 'proj-b'$$,
  $$VALUES (false, NULL::text, -1, NULL::text, NULL::timestamptz, 3::bigint, 9::bigint)$$,
  'unblock clears error, retry, lease and defer; keeps at and the mark');
SELECT is(act.unblock('{"blocked": false}'), 0, 'unblock with blocked=false matches nothing');
SELECT is(act.unblock('{}'), 1, 'an empty filter unblocks every blocked row');

-- reset
UPDATE act.subscription_rows SET blocked = true, error = 'e', leased_by = 'w', leased_until = now() + interval '1 hour', deferred_at = now() + interval '1 hour' WHERE stream = 'mail';
SELECT is(act.reset('["mail"]'), 1, 'reset by name');
SELECT results_eq($$SELECT at, retry, blocked, error, leased_by, leased_until, deferred_at, correlated_at, priority, lane FROM act.subscriptions WHERE stream = 'mail'$$,
  $$VALUES (-1::bigint, -1, false, NULL::text, NULL::text, NULL::timestamptz, NULL::timestamptz, 9::bigint, 1, 'default'::text)$$,
  'reset rewinds to -1 and frees the row, keeps mark, priority and lane');
SELECT is(act.reset('{"stream": "zzz"}'), 0, 'a filter that matches nothing');
SELECT is(act.reset('{}'), 4, 'reset counts every matched row, even rows already at -1');

-- query_streams
SELECT results_eq($$SELECT stream FROM act.query_streams()$$, ARRAY['Proj-C', 'mail', 'proj-a', 'proj-b'],
  'query_streams orders by stream in C collation');
SELECT results_eq($$SELECT stream FROM act.query_streams('{}', 'mail')$$, ARRAY['proj-a', 'proj-b'], 'keyset after');
SELECT results_eq($$SELECT stream FROM act.query_streams('{}', NULL, 2)$$, ARRAY['Proj-C', 'mail'], 'max_streams');
SELECT results_eq($$SELECT stream FROM act.query_streams('{}', 'Proj-C', 2)$$, ARRAY['mail', 'proj-a'], 'page two');
SELECT is((SELECT count(*) FROM act.query_streams('{}', NULL, 0)), 4::bigint, 'max_streams 0 = no limit');
SELECT results_eq($$SELECT stream FROM act.query_streams('{"lane": "fast"}')$$, ARRAY['Proj-C', 'proj-b'], 'lane filter');
SELECT results_eq($$SELECT stream FROM act.query_streams('{"source_matches": ["cart-9"]}')$$, ARRAY['Proj-C', 'proj-a'],
  'source_matches: source-less rows and sources matching a name');
SELECT results_eq($$SELECT stream FROM act.query_streams('{"source_matches": ["order-1"]}')$$, ARRAY['mail', 'proj-a', 'proj-b'],
  'source_matches with a literal source');
SELECT is((SELECT count(*) FROM act.query_streams('{"source_matches": []}')), 4::bigint, 'an empty source_matches is no filter');
-- source_matches by index finds what a regex test of every row's source finds:
-- a literal source reads the names it is a substring of.
INSERT INTO act.subscription_rows (stream, source) VALUES ('part', 'der-1'), ('longer', 'order-10'), ('dotted', 'order.1');
SELECT results_eq($$SELECT stream FROM act.query_streams('{"source_matches": ["order-1"]}')$$,
  ARRAY['dotted', 'mail', 'part', 'proj-a', 'proj-b'], 'source_matches: a literal source that is part of the name, a pattern');
SELECT results_eq($$SELECT stream FROM act.query_streams('{"source_matches": ["order-1", "cart-9"]}', 'mail', 3)$$,
  ARRAY['part', 'proj-a', 'proj-b'], 'source_matches of two names, paged');
-- ... reading those rows, not every row (pg_stat_xact_user_tables: this transaction's reads).
INSERT INTO act.subscription_rows (stream, source) SELECT 'many-' || i, 'other-' || i FROM generate_series(1, 2000) i;
ANALYZE act.subscription_rows;
CREATE TEMP TABLE rows_read AS
  SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_xact_user_tables WHERE relid = 'act.subscription_rows'::regclass;
SELECT is((SELECT count(*) FROM act.query_streams('{"source_matches": ["order-1"]}')), 5::bigint, 'the same five among 2,000 more');
SELECT cmp_ok((SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables
                WHERE relid = 'act.subscription_rows'::regclass) - (SELECT n FROM rows_read), '<', 100::bigint,
  'source_matches reads the rows that may read the name, not the 2,000 others');
DELETE FROM act.subscription_rows WHERE stream LIKE 'many-%' OR stream IN ('part', 'longer', 'dotted');
SELECT results_eq($$SELECT stream, source, at, retry, blocked, priority, lane FROM act.query_streams('{"stream": "Proj-C", "stream_exact": true}')$$,
  $$VALUES ('Proj-C'::text, '^cart-'::text, -1::bigint, -1, false, 1, 'fast'::text)$$, 'rows are whole subscription rows');

-- Bad input: nothing changes
CREATE TEMP TABLE snapshot AS SELECT * FROM act.subscriptions;
SELECT throws_ok($$SELECT act.reset('"mail"')$$, '22023', 'selector must be a JSON array of stream names or a filter object, not a string', 'a scalar selector');
SELECT throws_ok($$SELECT act.reset('[1]')$$, '22023', 'selector[0] must be a stream name, not a number', 'names must be strings');
SELECT throws_ok($$SELECT act.reset('{"blocked": "yes"}')$$, '22023', 'selector.blocked must be a boolean, not a string', 'a typed filter field');
SELECT throws_ok($$SELECT act.reset('{"stream": "proj-("}')$$, '2201B', NULL, 'an invalid stream regex: 2201B');
SELECT throws_ok($$SELECT act.defer(NULL, now())$$, '22004', 'selector must not be null', 'defer needs a selector');
SELECT throws_ok($$SELECT * FROM act.query_streams('{}', NULL, -1)$$, '22023', 'max_streams must be 0 (no limit) or more, not -1', 'negative max_streams');
SELECT ok((SELECT count(*) = 0 FROM (SELECT * FROM act.subscriptions EXCEPT SELECT * FROM snapshot) changed), 'nothing changed');

SELECT * FROM finish();
ROLLBACK;
