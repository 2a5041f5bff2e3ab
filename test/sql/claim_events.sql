-- act.claim_events: acks first (as act.ack), then the claim (as act.claim),
-- then each claimed stream's events after its watermark: from its source,
-- with its names, never a snapshot or tombstone, never above the horizon, at
-- most max_events and within max_bytes, pii only for those who may read it;
-- wait_millis bounded, its acks landing (the wait woken by another session's
-- commit: test/isolation/specs/claim_events_wait.spec).
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT has_function('act', 'claim_events', ARRAY['integer', 'integer', 'text', 'integer', 'text', 'integer', 'jsonb', 'integer', 'integer'],
  'act.claim_events(from_lagging, from_leading, by, millis, lane, max_events, acks, max_bytes, wait_millis)');
SELECT is((SELECT array_agg(p.parameter_default::text ORDER BY p.ordinal_position)
             FROM information_schema.parameters p JOIN information_schema.routines r USING (specific_name)
            WHERE r.routine_schema = 'act' AND r.routine_name = 'claim_events' AND p.parameter_mode = 'IN'),
  ARRAY[NULL, NULL, NULL, NULL, 'NULL::text', '100', 'NULL::jsonb', '16777216', '0'],
  'lane, max_events, acks, max_bytes (16 MB) and wait_millis (no wait) have their defaults');

SELECT count(*) FROM act.commit('o-1', '[{"name": "Placed", "data": {"n": 1}, "pii": {"email": "a@b"}}, {"name": "Paid"}]');
SELECT count(*) FROM act.commit('o-2', '[{"name": "Placed"}, {"name": "__snapshot__", "data": {}}]');
SELECT count(*) FROM act.commit('x-9', '[{"name": "Other"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "all", "lane": "l"}, {"stream": "lit", "source": "o-1", "names": ["Paid"], "lane": "l"},
                                     {"stream": "pat", "source": "^o-", "lane": "l"}]');

CREATE TEMP TABLE first_cycle AS SELECT * FROM act.claim_events(10, 0, 'w', 60000, 'l', 2);
SELECT is((SELECT array_agg(stream ORDER BY stream) FROM first_cycle), ARRAY['all', 'lit', 'pat'], 'three streams claimed');
SELECT is((SELECT array_agg(e ->> 'id' ORDER BY (e ->> 'id')::bigint) FROM first_cycle, jsonb_array_elements(events) e WHERE stream = 'all'),
  ARRAY['1', '2'], 'a source-less row gets every stream''s events, in id order, at most max_events');
SELECT is((SELECT array_agg(e ->> 'name') FROM first_cycle, jsonb_array_elements(events) e WHERE stream = 'lit'),
  ARRAY['Paid'], 'a literal source with names gets only those names');
SELECT is((SELECT array_agg(e ->> 'stream' || '/' || (e ->> 'version')) FROM first_cycle, jsonb_array_elements(events) e WHERE stream = 'pat'),
  ARRAY['o-1/0', 'o-1/1'], 'a pattern source gets its matching streams');
SELECT is((SELECT (first_cycle.events -> 0) - 'created' FROM first_cycle WHERE stream = 'all'),
  jsonb_build_object('id', 1, 'stream', 'o-1', 'version', 0, 'name', 'Placed', 'data', '{"n": 1}'::jsonb, 'meta', '{}'::jsonb,
                     'pii', '{"email": "a@b"}'::jsonb), 'an event object carries its fields (pii for the owner)');
SELECT ok((SELECT NOT ((first_cycle.events -> 1) ? 'pii') FROM first_cycle WHERE stream = 'all'), 'pii only when set');
SELECT ok((SELECT (first_cycle.events -> 0 ->> 'created')::timestamptz = (SELECT created FROM act.events WHERE id = 1)
             FROM first_cycle WHERE stream = 'all'), 'created as to_jsonb renders it');
SELECT is((SELECT array_agg(DISTINCT (stream, at, by, retry, lagging, lane)::text) FROM first_cycle WHERE stream = 'lit'),
  ARRAY['(lit,-1,w,0,t,l)'], 'the claim columns are act.claim''s');

-- The next cycle acks the last one and gets what is left.
CREATE TEMP TABLE second_cycle AS SELECT * FROM act.claim_events(10, 0, 'w', 60000, 'l', 2,
  '[{"stream": "all", "by": "w", "at": 2}, {"stream": "lit", "by": "w", "at": 2}, {"stream": "pat", "by": "w", "at": 2}]');
SELECT is((SELECT array_agg(stream ORDER BY stream) FROM second_cycle), ARRAY['all', 'pat'],
  'acked first: lit is done, the others had more than max_events and are claimed again');
SELECT is((SELECT array_agg(e ->> 'name' ORDER BY (e ->> 'id')::bigint) FROM second_cycle, jsonb_array_elements(events) e WHERE stream = 'all'),
  ARRAY['Placed', 'Other'], 'never a snapshot: o-2''s snapshot is skipped, x-9 follows');
SELECT is((SELECT array_agg(e ->> 'stream') FROM second_cycle, jsonb_array_elements(events) e WHERE stream = 'pat'),
  ARRAY['o-2'], 'the pattern row gets o-2''s event, not x-9''s');
SELECT is((SELECT at FROM act.subscriptions WHERE stream = 'lit'), 2::bigint, 'the ack set lit''s watermark');
SELECT is((SELECT count(*) FROM act.claim_events(10, 0, 'w', 60000, 'l', 100,
  (SELECT jsonb_agg(jsonb_build_object('stream', stream, 'by', by, 'at', (events -> -1 ->> 'id')::bigint)) FROM second_cycle))),
  0::bigint, 'everything handled: nothing left to claim');

-- A tombstone is never work; events run up to the horizon, not only to the mark.
SELECT count(*) FROM act.truncate('[{"stream": "x-9"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "late", "source": "o-1", "correlated_at": 1}]');
SELECT is((SELECT jsonb_array_length(events) FROM act.claim_events(10, 0, 'w2', 60000, max_events => 10) WHERE stream = 'late'),
  2, 'a row marked at 1 gets both of o-1''s events (up to the horizon)');
SELECT is((SELECT count(*) FROM act.subscriptions WHERE stream = 'all' AND at < coalesce(correlated_at, -1)), 0::bigint,
  'the tombstone gave the source-less row no work');

-- A stream claimed only to be acked gets [].
SELECT count(*) FROM act.subscribe('[{"stream": "nothing-yet", "source": "no-such-stream", "correlated_at": 5}]');
SELECT is((SELECT events FROM act.claim_events(10, 0, 'w3', 60000) WHERE stream = 'nothing-yet'), '[]'::jsonb,
  'a claimed row with nothing to hand over gets []');

-- Acks: all or nothing, a lost lease dropped, a watermark beyond any read refused.
SELECT count(*) FROM act.subscribe('[{"stream": "race", "source": "o-2"}]');
SELECT is((SELECT count(*) FROM act.claim_events(10, 0, 'w4', 60000) WHERE stream = 'race'), 1::bigint, 'race claimed by w4');
SELECT lives_ok($$SELECT * FROM act.claim_events(0, 0, 'w5', 60000, acks => '[{"stream": "race", "by": "w5", "at": 3}]')$$,
  'an ack from a worker that does not hold the lease is dropped, not an error');
SELECT is((SELECT leased_by FROM act.subscriptions WHERE stream = 'race'), 'w4', 'and changes nothing');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.claim_events(10, 0, 'w4', 60000,
  acks => '[{"stream": "race", "by": "w4", "at": %s}]')$$, act.horizon() + 1),
  '22023', 'acks: at % for stream "race" is beyond act.horizon() (%): no read could have reached it',
  'an ack beyond the horizon: nothing acked, nothing claimed');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(10, 0, 'w4', 60000, acks => '[{"stream": "race", "by": "w4", "at": 3, "att": 1}]')$$,
  '22023', 'acks[0]: unknown key "att"%', 'an ack with an unknown key');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(10, 0, 'w4', 60000, acks => '{"stream": "race"}')$$,
  '22023', 'acks must be a JSON array, not an object', 'acks as an object');

-- Bad arguments, as act.claim's.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(1, 0, 'w', 1000, max_events => 0)$$,
  '22023', 'max_events must be 1 or more, not 0', 'max_events 0');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(1, 0, 'w', 1000, max_events => NULL)$$,
  '22004', 'max_events must not be null', 'max_events NULL');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(1, 0, 'w', 1000, max_bytes => 0)$$,
  '22023', 'max_bytes must be 1 or more, not 0', 'max_bytes 0');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(1, 0, 'w', 1000, max_bytes => -1)$$,
  '22023', 'max_bytes must be 1 or more, not -1', 'max_bytes -1');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(1, 0, 'w', 1000, max_bytes => NULL)$$,
  '22004', 'max_bytes must not be null', 'max_bytes NULL');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(-1, 0, 'w', 1000)$$, '22023', NULL, 'negative from_lagging');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(1, 0, '', 1000)$$, '22023', 'by must not be empty', 'an empty by');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(1, 0, NULL, 1000)$$, '22004', 'by must not be null', 'a NULL by');

-- millis runs from 0 to one hour, as act.claim's; lease-bound has work, so a
-- refused call that leased it would show in the digest.
SELECT count(*) FROM act.subscribe('[{"stream": "lease-bound", "source": "o-1", "lane": "bound"}]');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(10, 0, 'w', 3600001, 'bound')$$, '22023',
  'millis must be at most 3600000 (one hour), not 3600001', 'millis one above an hour');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(10, 0, 'w', 2147483647, 'bound')$$, '22023',
  'millis must be at most 3600000 (one hour), not 2147483647', 'millis int4 max');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(10, 0, 'w', -1, 'bound')$$, '22023',
  'millis must be 0 or more, not -1', 'millis -1');
-- wait_millis from 0 to one minute, checked before the acks land.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(10, 0, 'w', 1000, 'bound', wait_millis => -1)$$, '22023',
  'wait_millis must be between 0 and 60000, not -1', 'wait_millis -1');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(10, 0, 'w', 1000, 'bound', wait_millis => 60001)$$, '22023',
  'wait_millis must be between 0 and 60000, not 60001', 'wait_millis one above a minute');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(10, 0, 'w', 1000, 'bound', wait_millis => NULL)$$, '22004',
  'wait_millis must not be null', 'wait_millis NULL');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim_events(10, 0, 'w4', 1000, acks => '[{"stream": "race", "by": "w4", "at": 3}]', wait_millis => -5)$$,
  '22023', 'wait_millis must be between 0 and 60000, not -5', 'wait_millis -5 beside a valid ack: the ack does not land');
SELECT is((SELECT stream FROM act.claim_events(10, 0, 'w', 3600000, 'bound')), 'lease-bound',
  'millis of exactly one hour is granted');
SELECT is((SELECT leased_until FROM act.subscriptions WHERE stream = 'lease-bound'), now() + interval '1 hour',
  'the lease runs one hour');

-- wait_millis: work at hand is returned; with none, the call returns no
-- rows when the wait is over. Acks beside a wait are refused before they
-- land: the acked row would stay locked while the call waits, and a commit
-- marking it would wait for the call.
SELECT count(*) FROM act.subscribe('[{"stream": "waiter", "source": "wait-1", "lane": "wait"}]');
SELECT count(*) FROM act.commit('wait-1', '[{"name": "Waited"}]');
CREATE TEMP TABLE wait_cycle AS SELECT * FROM act.claim_events(1, 0, 'ww', 60000, 'wait', wait_millis => 60000);
SELECT is((SELECT stream || ':' || jsonb_array_length(events) FROM wait_cycle), 'waiter:1', 'a waiting claim returns the work at hand');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.claim_events(1, 0, 'ww', 60000, 'wait', wait_millis => 20,
  acks => '[{"stream": "waiter", "by": "ww", "at": %s}]')$$, (SELECT (events -> -1 ->> 'id')::bigint FROM wait_cycle)), '22023',
  'wait_millis must be 0 when acks are given, not 20: the acked rows stay locked while the call waits, and a commit that marks them would wait with it',
  'wait_millis 20 beside an ack: the ack does not land');
SELECT is((SELECT count(*) FROM act.claim_events(0, 0, 'ww', 60000, 'wait',
             acks => (SELECT jsonb_build_array(jsonb_build_object('stream', stream, 'by', by, 'at', (events -> -1 ->> 'id')::bigint))
                        FROM wait_cycle))),
  0::bigint, 'the same ack without a wait lands');
SELECT is((SELECT at FROM act.subscriptions WHERE stream = 'waiter'), (SELECT (events -> -1 ->> 'id')::bigint FROM wait_cycle),
  'its watermark moved');
SELECT is((SELECT count(*) FROM act.claim_events(1, 0, 'ww', 60000, 'wait', wait_millis => 20)), 0::bigint,
  'with nothing left, a waiting claim returns no rows once its wait is over');

-- pii: a worker reads it as absent.
CREATE ROLE app_worker IN ROLE act_worker;
SELECT count(*) FROM act.subscribe('[{"stream": "mailer", "source": "o-1"}]');
SET ROLE app_worker;
SELECT is((SELECT count(*) FROM act.claim_events(10, 0, 'wk', 60000) c, jsonb_array_elements(c.events) e
            WHERE c.stream = 'mailer' AND e ? 'pii'), 0::bigint, 'act_worker gets no pii in the events');
SELECT is((SELECT count(*) FROM act.claim_events(10, 0, 'wk', 60000, acks => '[{"stream": "mailer", "by": "wk", "at": 2}]')),
  0::bigint, 'act_worker acks through it');
RESET ROLE;
SELECT is((SELECT at FROM act.subscriptions WHERE stream = 'mailer'), 2::bigint, 'the worker''s ack landed');

-- max_bytes: a batch stops before the budget, with at least one event.
-- Events of 10,000 bytes of data (each some 10.5 kB with its other fields)
-- under a budget of 25,000: two a batch.
SELECT count(*) FROM act.commit('b-1', (SELECT jsonb_agg(jsonb_build_object('name', 'Big', 'data', jsonb_build_object('s', repeat(n::text, 10000))))
                                          FROM generate_series(1, 3) n));
SELECT count(*) FROM act.commit('b-2', '[{"name": "Small"}, {"name": "Small"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "budget", "source": "b-1", "lane": "b"}, {"stream": "beside", "source": "b-2", "lane": "b"}]');
CREATE TEMP TABLE budget_cycle AS SELECT * FROM act.claim_events(10, 0, 'wb', 60000, 'b', max_bytes => 25000);
-- (Each event as its data's first character and length: a short message when it fails.)
CREATE FUNCTION pg_temp.sizes(events jsonb) RETURNS text[] LANGUAGE sql AS $$
  SELECT array_agg(left(e -> 'data' ->> 's', 1) || ':' || length(e -> 'data' ->> 's')) FROM jsonb_array_elements(events) e
$$;
SELECT is((SELECT pg_temp.sizes(events) FROM budget_cycle WHERE stream = 'budget'), ARRAY['1:10000', '2:10000'], 'a row whose pending events exceed max_bytes gets the events that fit');
SELECT is((SELECT jsonb_array_length(events) FROM budget_cycle WHERE stream = 'beside'), 2,
  'the other row claimed in the same call gets its events');
CREATE TEMP TABLE budget_next AS SELECT * FROM act.claim_events(10, 0, 'wb', 60000, 'b', max_bytes => 25000,
  acks => (SELECT jsonb_agg(jsonb_build_object('stream', stream, 'by', by, 'at', (events -> -1 ->> 'id')::bigint)) FROM budget_cycle));
SELECT is((SELECT array_agg(stream) FROM budget_next), ARRAY['budget'], 'the row cut by the budget stays claimable');
SELECT is((SELECT pg_temp.sizes(events) FROM budget_next), ARRAY['3:10000'], 'and gets the rest next');
SELECT count(*) FROM act.subscribe('[{"stream": "budget-one", "source": "b-1", "lane": "b1"}]');
SELECT is((SELECT jsonb_array_length(events) FROM act.claim_events(10, 0, 'wb', 60000, 'b1', max_bytes => 1)), 1,
  'an event larger than the budget is handed out alone');

-- Events that the old claim handed out 100 at a time, over jsonb's 256 MB:
-- 18 of 15 MB (a commit takes at most 16 MB; compressible, so they cost
-- little to store); the same call
-- claims another row, which gets its events.
DO $$
BEGIN
  FOR i IN 1..18 LOOP
    PERFORM act.commit('h-1', jsonb_build_array(jsonb_build_object('name', 'Huge', 'data', jsonb_build_object('s', repeat('x', 15000000)))));
  END LOOP;
END $$;
SELECT count(*) FROM act.commit('h-2', '[{"name": "Small"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "huge", "source": "h-1", "lane": "h"}, {"stream": "huge-beside", "source": "h-2", "lane": "h"}]');
CREATE TEMP TABLE huge_cycle (stream text, events int, size int);
SELECT lives_ok($$INSERT INTO huge_cycle SELECT stream, jsonb_array_length(events), coalesce(length(events -> 0 -> 'data' ->> 's'), 0)
                    FROM act.claim_events(10, 0, 'wh', 60000, 'h')$$,
  'a row whose next 100 events exceed 256 MB is claimed without an error');
SELECT is((SELECT array_agg(stream || ':' || events || ':' || size ORDER BY stream) FROM huge_cycle),
  ARRAY['huge:1:15000000', 'huge-beside:1:0'], 'it gets one event under the 16 MB default, and the other row its own');

SELECT * FROM finish();
ROLLBACK;
