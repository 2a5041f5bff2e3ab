-- act.subscribe: merge rules, static marking at commit, back-fill, checkpoint, correlator lease, bad input.
BEGIN;
SELECT * FROM no_plan();

SELECT has_function('act', 'subscribe', ARRAY['jsonb', 'bigint', 'jsonb'], 'act.subscribe signature');

-- History before any subscription: back-fill must see it.
SELECT count(*) FROM act.commit('order-1', '[{"name": "Placed"}, {"name": "Paid"}]');   -- 1, 2
SELECT count(*) FROM act.commit('order-2', '[{"name": "Placed"}, {"name": "__snapshot__", "data": {}}]');  -- 3, 4
SELECT count(*) FROM act.commit('cart.1', '[{"name": "Added"}]');                       -- 5

SELECT results_eq($$SELECT subscribed, watermark, correlated_at, correlating FROM act.subscribe('[
    {"stream": "all"},
    {"stream": "o1", "source": "order-1"},
    {"stream": "o1-paid", "source": "order-1", "names": ["Paid"]},
    {"stream": "orders", "source": "^order-[0-9]+$"},
    {"stream": "placed", "names": ["Placed"]},
    {"stream": "cart-dot", "source": "cart.1"},
    {"stream": "nothing-yet", "source": "invoice-1"}]')$$,
  $$VALUES (7, -1::bigint, -1::bigint, NULL::boolean)$$, 'seven new rows; no correlator: correlating is NULL');
SELECT results_eq($$SELECT stream, at, retry, blocked, error, leased_by, priority, lane, deferred_at, correlated_at
                      FROM act.subscriptions WHERE stream = 'o1'$$,
  $$VALUES ('o1'::text, -1::bigint, -1, false, NULL::text, NULL::text, 0, 'default'::text, NULL::timestamptz, 2::bigint)$$,
  'a new row: at -1, retry -1, free, priority 0, lane default');
SELECT results_eq($$SELECT stream, correlated_at FROM act.subscriptions ORDER BY stream$$,
  $$VALUES ('all'::text, 5::bigint), ('cart-dot', 5), ('nothing-yet', NULL), ('o1', 2), ('o1-paid', 2), ('orders', 3),
           ('placed', 3)$$,
  'back-fill: the highest existing event that is work (never a snapshot), by source and names');
SELECT is((SELECT names FROM act.subscriptions WHERE stream = 'o1-paid'), ARRAY['Paid'], 'names are stored');

-- Static marking at commit
SELECT count(*) FROM act.commit('order-1', '[{"name": "Shipped"}]');          -- 6
SELECT results_eq($$SELECT stream, correlated_at FROM act.subscriptions ORDER BY stream$$,
  $$VALUES ('all'::text, 6::bigint), ('cart-dot', 5), ('nothing-yet', NULL), ('o1', 6), ('o1-paid', 2), ('orders', 6),
           ('placed', 3)$$,
  'a commit marks matching sources: null, literal, pattern; names filter');
SELECT count(*) FROM act.commit('order-12', '[{"name": "Placed"}, {"name": "Noted"}]');     -- 7, 8
SELECT results_eq($$SELECT stream, correlated_at FROM act.subscriptions WHERE stream IN ('o1', 'orders', 'placed', 'all') ORDER BY stream$$,
  $$VALUES ('all'::text, 8::bigint), ('o1', 6), ('orders', 8), ('placed', 7)$$,
  'literal sources match by equality only; the mark is the highest matching id of the batch');
SELECT count(*) FROM act.commit('cartX1', '[{"name": "Added"}]');                           -- 9
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'cart-dot'), 9::bigint,
  'a source with a metacharacter is a pattern (cart.1 matches cartX1)');
SELECT count(*) FROM act.commit('order-1', '[{"name": "__snapshot__", "data": {}}]');      -- 10
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'all'), 9::bigint, 'snapshots mark nothing');
SELECT count(*) FROM act.truncate('[{"stream": "order-12"}]');                              -- 11, its removal record 12
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'all'), 9::bigint, 'truncate marks nothing, nor does its removal record');
SELECT count(*) FROM act.commit('invoice-1', '[{"name": "Issued"}]');                      -- 13
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'nothing-yet'), 13::bigint, 'a first mark lands on a NULL mark');

-- Blocked rows are marked too
UPDATE act.subscription_rows SET blocked = true WHERE stream = 'o1';
SELECT count(*) FROM act.commit('order-1', '[{"name": "Refunded"}]');                      -- 14
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'o1'), 14::bigint, 'blocked rows are marked (claim skips them)');
UPDATE act.subscription_rows SET blocked = false WHERE stream = 'o1';

-- Merge rules for existing rows
SELECT results_eq($$SELECT subscribed FROM act.subscribe('[{"stream": "o1", "source": "other", "names": ["X"], "priority": 3, "lane": "fast", "correlated_at": 20}]')$$,
  ARRAY[0], 'an existing row is not counted as subscribed');
SELECT results_eq($$SELECT source, names, priority, lane, correlated_at FROM act.subscriptions WHERE stream = 'o1'$$,
  $$VALUES ('order-1'::text, NULL::text[], 3, 'fast'::text, 20::bigint)$$,
  'source and names fixed at first insert; priority raised; lane set; mark raised');
SELECT count(*) FROM act.subscribe('[{"stream": "o1", "priority": 1, "lane": "fast", "correlated_at": 15}]');
SELECT results_eq($$SELECT priority, correlated_at FROM act.subscriptions WHERE stream = 'o1'$$,
  $$VALUES (3, 20::bigint)$$, 'priority only rises; the mark never regresses');
SELECT count(*) FROM act.subscribe('[{"stream": "o1"}]');
SELECT results_eq($$SELECT lane, correlated_at FROM act.subscriptions WHERE stream = 'o1'$$,
  $$VALUES ('default'::text, 20::bigint)$$, 'omitting lane re-lanes to default (last writer wins); an omitted mark changes nothing');
SELECT count(*) FROM act.subscribe('[{"stream": "dup", "priority": 1, "lane": "a", "correlated_at": 4}, {"stream": "dup", "priority": 5, "lane": "b", "correlated_at": 2}, {"stream": "dup", "priority": 2, "correlated_at": 3}]');
SELECT results_eq($$SELECT priority, lane, correlated_at FROM act.subscriptions WHERE stream = 'dup'$$,
  $$VALUES (5, 'default'::text, 14::bigint)$$, 'duplicates in one call: highest priority, last lane, highest mark (back-fill wins here)');
SELECT count(*) FROM act.subscribe('[{"stream": "marked", "source": "nope", "correlated_at": 4}]');
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'marked'), 4::bigint, 'a new row takes its given mark');
SELECT is((SELECT count(*) FROM act.subscribe('[]')), 1::bigint, 'an empty list still returns the summary row');

-- Checkpoint and correlator lease
SELECT results_eq($$SELECT correlated_at, correlating FROM act.subscribe('[]', 10)$$, $$VALUES (10::bigint, NULL::boolean)$$,
  'the checkpoint advances the shared row');
SELECT results_eq($$SELECT correlated_at FROM act.subscribe('[]', 4)$$, ARRAY[10::bigint], 'the checkpoint never goes back');
SELECT results_eq($$SELECT correlated_at, correlating FROM act.subscribe('[]', NULL, '{"key": "k", "by": "w1", "millis": 60000}')$$,
  $$VALUES (10::bigint, true)$$, 'a new correlator key inherits the shared floor and is leased');
SELECT results_eq($$SELECT correlated_at, correlating FROM act.subscribe('[]', 12, '{"key": "k", "by": "w2", "millis": 60000}')$$,
  $$VALUES (12::bigint, false)$$, 'another worker is refused, but its checkpoint still advances');
SELECT results_eq($$SELECT leased_by, at FROM act.correlators WHERE key = 'k'$$, $$VALUES ('w1'::text, 12::bigint)$$,
  'the lease stays with its holder');
SELECT is((SELECT at FROM act.correlators WHERE key = ''), 12::bigint, 'the shared row tracks the furthest checkpoint');
SELECT results_eq($$SELECT correlating FROM act.subscribe('[]', NULL, '{"key": "k", "by": "w1", "millis": 60000}')$$,
  ARRAY[true], 'the holder renews');
SELECT results_eq($$SELECT correlating FROM act.subscribe('[]', NULL, '{"key": "k", "by": "w1", "millis": 0}')$$,
  ARRAY[true], 'non-positive millis releases');
SELECT ok((SELECT leased_by IS NULL AND leased_until IS NULL FROM act.correlators WHERE key = 'k'), 'released');
SELECT results_eq($$SELECT correlating FROM act.subscribe('[]', NULL, '{"key": "k", "by": "w2", "millis": 60000}')$$,
  ARRAY[true], 'a released lease goes to the next asker');
UPDATE act.correlators SET leased_until = now() - interval '1 second' WHERE key = 'k';
SELECT results_eq($$SELECT correlating FROM act.subscribe('[]', NULL, '{"key": "k", "by": "w3", "millis": 60000}')$$,
  ARRAY[true], 'an expired lease can be taken');
SELECT results_eq($$SELECT correlated_at FROM act.subscribe('[]', NULL, '{"key": "k2", "by": "w1", "millis": 1000}')$$,
  ARRAY[12::bigint], 'keys are independent; a new key starts at the shared floor');
SELECT is((SELECT watermark FROM act.subscribe('[]')), -1::bigint, 'watermark: the highest at (-1 when none)');
UPDATE act.subscription_rows SET at = 7 WHERE stream = 'all';
SELECT is((SELECT watermark FROM act.subscribe('[]')), 7::bigint, 'watermark follows at');

-- Bad input: nothing changes
CREATE TEMP TABLE before_bad AS SELECT count(*) AS n FROM act.subscriptions;
SELECT throws_ok($$SELECT * FROM act.subscribe('{"stream": "x"}')$$, '22023', 'subscriptions must be a JSON array, not an object', 'not an array');
SELECT throws_ok($$SELECT * FROM act.subscribe('[{"stream": "ok-1"}, {"source": "x"}]')$$, '22023', 'subscriptions[1].stream is required', 'a missing stream');
SELECT throws_ok($$SELECT * FROM act.subscribe('[{"stream": 7}]')$$, '22023', 'subscriptions[0].stream must be a string, not a number', 'a non-string stream');
SELECT throws_ok($$SELECT * FROM act.subscribe('[{"stream": "x", "names": []}]')$$, '22023', NULL, 'empty names is bad input');
SELECT throws_ok($$SELECT * FROM act.subscribe('[{"stream": "x", "names": ["a", 1]}]')$$, '22023', 'subscriptions[0].names[1] must be a string, not a number', 'names hold strings');
SELECT throws_ok($$SELECT * FROM act.subscribe('[{"stream": "x", "priority": 1.5}]')$$, '22023', 'subscriptions[0].priority must be an integer, not 1.5', 'a fractional priority');
SELECT throws_ok($$SELECT * FROM act.subscribe('[{"stream": "x", "source": "order-(", "correlated_at": 1}]')$$, '2201B', NULL, 'an invalid regex source: 2201B');
SELECT throws_ok($$SELECT * FROM act.subscribe('[]', NULL, '{"key": "k", "by": "w1"}')$$, '22023', 'correlator.millis is required', 'a correlator without millis');
SELECT throws_ok($$SELECT * FROM act.subscribe('[]', NULL, '{"key": "", "by": "w1", "millis": 5}')$$, '22023', NULL, 'the shared key is not a lease');
SELECT is((SELECT count(*) FROM act.subscriptions), (SELECT n FROM before_bad), 'bad input inserted nothing');

-- Wide marks: a commit raises its backend's row of each matching class in
-- place; a row that is missing (a class added since, or a row deleted) is
-- inserted. Subscriptions with the same source and names share a class.
CREATE FUNCTION pg_temp.class_of(target text) RETURNS int LANGUAGE sql AS $$
  SELECT class FROM act.subscription_rows WHERE stream = target
$$;
CREATE FUNCTION pg_temp.class_mark(target text) RETURNS bigint LANGUAGE sql AS $$
  SELECT max(mark) FROM act.wide_marks WHERE class = pg_temp.class_of(target)
$$;
SELECT count(*) FROM act.subscribe('[{"stream": "wide-a", "source": "^wm-"}]');
CREATE TEMP TABLE wm_ids AS SELECT 1 AS step, id FROM act.commit('wm-1', '[{"name": "A"}]');
INSERT INTO wm_ids SELECT 2, id FROM act.commit('wm-1', '[{"name": "B"}]');
SELECT results_eq($$SELECT count(*), max(mark) FROM act.wide_marks WHERE class = pg_temp.class_of('wide-a')$$,
  $$SELECT 1::bigint, id FROM wm_ids WHERE step = 2$$, 'a second commit raises the same wide_marks row');
SELECT count(*) FROM act.subscribe('[{"stream": "wide-b", "source": "^wm-"}, {"stream": "wide-c", "source": "^wm-", "names": ["C"]},
                                     {"stream": "literal-wm", "source": "wm-1"}]');
SELECT is(pg_temp.class_of('wide-b'), pg_temp.class_of('wide-a'), 'the same source and names: the same class');
SELECT isnt(pg_temp.class_of('wide-c'), pg_temp.class_of('wide-a'), 'other names: another class');
SELECT is(pg_temp.class_of('literal-wm'), NULL, 'a literal source has no class');
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'wide-b'), (SELECT id FROM wm_ids WHERE step = 2),
  'a row joining a class is back-filled like any other');
INSERT INTO wm_ids SELECT 3, id FROM act.commit('wm-1', '[{"name": "C"}]');
SELECT results_eq($$SELECT stream, correlated_at FROM act.subscriptions WHERE stream IN ('wide-a', 'wide-b', 'wide-c') ORDER BY stream$$,
  $$SELECT s, id FROM wm_ids, unnest(ARRAY['wide-a', 'wide-b', 'wide-c']) s WHERE step = 3 ORDER BY s$$,
  'a commit marks a class added since its backend last marked, and the existing one');
SELECT is((SELECT count(*) FROM act.wide_marks WHERE class IN (pg_temp.class_of('wide-a'), pg_temp.class_of('wide-c'))),
  2::bigint, 'one row per class and backend, not per subscription');
DELETE FROM act.wide_marks WHERE class = pg_temp.class_of('wide-a');
INSERT INTO wm_ids SELECT 4, id FROM act.commit('wm-1', '[{"name": "D"}]');
SELECT is(pg_temp.class_mark('wide-a'), (SELECT id FROM wm_ids WHERE step = 4), 'a deleted wide_marks row is written again by the next commit');
SELECT is(pg_temp.class_mark('wide-c'), (SELECT id FROM wm_ids WHERE step = 3), 'a class whose names the commit lacks keeps its mark');
UPDATE act.wide_marks SET mark = 1000000000000 WHERE class = pg_temp.class_of('wide-a');
INSERT INTO wm_ids SELECT 5, id FROM act.commit('wm-1', '[{"name": "E"}]');
SELECT is(pg_temp.class_mark('wide-a'), 1000000000000::bigint, 'a wide mark never goes back');

-- Claims read a wide row's work from its class: one claim takes the rows
-- with work and leaves the rest (and acked rows) alone.
SELECT is((SELECT array_agg(stream ORDER BY stream) FROM act.claim(1000, 0, 'w-wide', 60000) WHERE stream LIKE 'wide-%'),
  ARRAY['wide-a', 'wide-b', 'wide-c'], 'claim finds wide rows with work through their class');
SELECT is((SELECT count(*) FROM act.ack(jsonb_build_array(jsonb_build_object('stream', 'wide-c', 'by', 'w-wide',
                                                                   'at', (SELECT id FROM wm_ids WHERE step = 5))))),
  1::bigint, 'the wide row is acknowledged past its class''s mark');
SELECT is((SELECT count(*) FROM act.claim(1000, 0, 'w-wide-2', 1, 'default') WHERE stream = 'wide-c'), 0::bigint,
  'an acked wide row has no work until its class''s mark rises again');

-- A row joining a class whose mark came from events deleted since
-- (act.truncate) does not take that mark as work: no fetch could reach it,
-- and the row would be claimed for ever.
SELECT count(*) FROM act.subscribe('[{"stream": "gone-1", "source": "^gone-", "names": ["X"]}]');
CREATE TEMP TABLE gone_ids AS SELECT id FROM act.commit('gone-a', '[{"name": "X"}]');
SELECT count(*) FROM act.truncate('[{"stream": "gone-a", "snapshot": {}}]');
SELECT count(*) FROM act.subscribe('[{"stream": "gone-2", "source": "^gone-", "names": ["X"]}]');
SELECT is(pg_temp.class_of('gone-2'), pg_temp.class_of('gone-1'), 'the late row joins the class');
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'gone-2'), NULL,
  'its work mark leaves out what the class marked on deleted events');
SELECT is((SELECT count(*) FROM act.claim(1000, 0, 'w-gone', 60000) WHERE stream = 'gone-2'), 0::bigint,
  'so it is not claimed for nothing');
SELECT count(*) FROM act.commit('gone-b', '[{"name": "X"}]');
SELECT is((SELECT count(*) FROM act.claim(1000, 0, 'w-gone-2', 60000) WHERE stream = 'gone-2'), 1::bigint,
  'a new event of its class is its work');

-- Within a class, priority comes first: the prioritized row of a class is
-- claimed before older rows of the same class.
SELECT count(*) FROM act.subscribe('[{"stream": "prio-1", "source": "^prio-", "lane": "prio"},
                                     {"stream": "prio-2", "source": "^prio-", "lane": "prio"},
                                     {"stream": "prio-3", "source": "^prio-", "lane": "prio"}]');
SELECT count(*) FROM act.commit('prio-src', '[{"name": "A"}]');
SELECT act.prioritize('{"stream": "prio-3"}', 5);
SELECT is((SELECT array_agg(stream) FROM act.claim(1, 0, 'w-prio', 60000, 'prio')), ARRAY['prio-3'],
  'the highest priority of the class first');
SELECT is((SELECT array_agg(stream ORDER BY stream) FROM act.claim(2, 0, 'w-prio', 60000, 'prio')), ARRAY['prio-1', 'prio-2'],
  'then the rest by watermark');

SELECT * FROM finish();
ROLLBACK;
