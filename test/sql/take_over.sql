-- act.take_over: a successor row takes a former row's watermark, retry,
-- block and deferral and the former goes (its class too when left empty);
-- with keep_name the successor takes the former's name; the events after
-- the watermark come from the successor's own source; a worker's lease on
-- the former is dropped; bad input refused with nothing written.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT has_function('act', 'take_over', ARRAY['text', 'text', 'boolean'], 'act.take_over signature');

SELECT count(*) FROM act.commit('orders-1', '[{"name": "A"}, {"name": "A"}]');   -- 1, 2
SELECT count(*) FROM act.commit('refunds-1', '[{"name": "A"}]');                 -- 3
SELECT count(*) FROM act.commit('orders-2', '[{"name": "A"}]');                  -- 4
SELECT count(*) FROM act.subscribe('[{"stream": "old", "source": "^orders-", "names": ["A"], "lane": "l"},
                                     {"stream": "lit-old", "source": "orders-1", "names": ["A"], "lane": "m"}]');
-- The old version handled up to 2, and a worker of it still holds the lease.
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w-old', 60000, 'l')), 1::bigint, 'old is claimed by w-old');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "old", "by": "w-old", "at": 2}]')), 1::bigint, 'old handled 1 and 2');
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w-old', 60000, 'l')), 1::bigint, 'w-old claims old again');
CREATE TEMP TABLE old_class AS SELECT class AS id FROM act.subscription_rows WHERE stream = 'old';

-- A rename: the successor has the same source, a new name and lane.
SELECT count(*) FROM act.subscribe('[{"stream": "new", "source": "^orders-", "names": ["A"], "lane": "n"}]');
SELECT results_eq($$SELECT stream, source, at, former, former_source FROM act.take_over('new', 'old')$$,
  $$VALUES ('new'::text, '^orders-'::text, 2::bigint, 'old'::text, '^orders-'::text)$$,
  'the successor takes the former''s watermark (2)');
SELECT is((SELECT count(*) FROM act.subscription_rows WHERE stream = 'old'), 0::bigint, 'the former row is gone');
SELECT results_eq($$SELECT lane, leased_by IS NULL, retry FROM act.subscription_rows WHERE stream = 'new'$$,
  $$VALUES ('n'::text, true, 0)$$, 'the successor keeps its lane, holds no lease and has the former''s retry (0)');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "old", "by": "w-old", "at": 4}]')), 0::bigint,
  'the old worker''s ack finds no row and moves nothing');
SELECT is((SELECT jsonb_path_query_array(events, '$[*].id') FROM act.claim_events(10, 0, 'w-new', 60000, 'n')),
  '[4]'::jsonb, 'the successor is handed the events after the watermark, no earlier one');
SELECT is((SELECT count(*) FROM act.wide_classes WHERE id = (SELECT id FROM old_class)), 1::bigint,
  'the class the successor shares stays');
SELECT is((SELECT count(*) FROM act.ack('[{"stream": "new", "by": "w-new", "at": 4}]')), 1::bigint, 'new handled 4');

-- A wider source under the same name: a successor made under another name
-- takes the former's watermark and then its name.
SELECT count(*) FROM act.subscribe('[{"stream": "new~wider", "source": "^(orders|refunds)-", "names": ["A"], "lane": "n"}]');
SELECT results_eq($$SELECT stream, source, at, former, former_source FROM act.take_over('new~wider', 'new', true)$$,
  $$VALUES ('new'::text, '^(orders|refunds)-'::text, 4::bigint, 'new'::text, '^orders-'::text)$$,
  'keep_name: the successor goes on under the former''s name from its watermark');
SELECT is((SELECT count(*) FROM act.subscription_rows WHERE stream = 'new~wider'), 0::bigint, 'no row keeps the temporary name');
SELECT is((SELECT count(*) FROM act.wide_classes WHERE source = '^orders-'), 0::bigint,
  'the former''s class, which no row is in any more, is dropped');
SELECT count(*) FROM act.commit('refunds-1', '[{"name": "A"}]');                 -- 5
SELECT count(*) FROM act.commit('orders-1', '[{"name": "A"}]');                  -- 6
SELECT is((SELECT jsonb_path_query_array(events, '$[*].id') FROM act.claim_events(10, 0, 'w-new', 60000, 'n')),
  '[5, 6]'::jsonb, 'after the move, events of both sources; refunds-1''s event 3, below the watermark, is not handed over');

-- A blocked literal row: the block and its error move with the watermark.
SELECT is((SELECT count(*) FROM act.claim(10, 0, 'w-lit', 60000, 'm')), 1::bigint, 'lit-old is claimed');
SELECT is((SELECT count(*) FROM act.block('[{"stream": "lit-old", "by": "w-lit", "at": 1, "error": "boom"}]')), 1::bigint,
  'lit-old blocks at 1');
CREATE TEMP TABLE lit_old AS SELECT at, retry, blocked, error FROM act.subscription_rows WHERE stream = 'lit-old';
SELECT count(*) FROM act.subscribe('[{"stream": "lit-new", "source": "orders-1", "names": ["A"], "lane": "m"}]');
SELECT results_eq($$SELECT stream, former_source FROM act.take_over('lit-new', 'lit-old')$$,
  $$VALUES ('lit-new'::text, 'orders-1'::text)$$, 'a literal row is taken over');
SELECT results_eq($$SELECT at, retry, blocked, error FROM act.subscription_rows WHERE stream = 'lit-new'$$,
  $$SELECT at, retry, blocked, error FROM lit_old$$, 'the watermark, retry, block and error come along');
SELECT ok((SELECT blocked FROM lit_old), 'lit-old was blocked');

-- Bad input: one fault per call, each refused with nothing written.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.take_over(NULL, 'new')$$,
  '22004', 'successor must not be null', 'a NULL successor');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.take_over('lit-new', NULL)$$,
  '22004', 'former must not be null', 'a NULL former');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.take_over('lit-new', 'new', NULL)$$,
  '22004', 'keep_name must not be null', 'a NULL keep_name');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.take_over('', 'new')$$,
  '22023', 'successor must not be empty', 'an empty successor');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.take_over('lit-new', '')$$,
  '22023', 'former must not be empty', 'an empty former');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.take_over('new', 'new')$$,
  '22023', 'successor and former are both "new": a subscription cannot take over its own watermark', 'the same row twice');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.take_over('nope', 'new')$$,
  '22023', 'subscription "nope" does not exist: act.subscribe creates it with its source and names first',
  'a successor with no subscription');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.take_over('new', 'gone')$$,
  '22023', 'former subscription "gone" does not exist', 'a former with no subscription');
SELECT results_eq($$SELECT stream, at FROM act.subscriptions ORDER BY stream$$,
  $$VALUES ('lit-new'::text, (SELECT at FROM lit_old)), ('new', 4)$$, 'the rows are as they were');

SELECT * FROM finish();
ROLLBACK;
