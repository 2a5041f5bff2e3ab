-- act.status, act.lag, act.metrics: what is stuck, how far behind, who holds
-- what; bounded by the work set (plans of 100,000 subscriptions use indexes
-- only), never a stream name in a metric label.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT count(*) FROM act.commit('src-a', '[{"name": "A"}, {"name": "B"}]');
SELECT count(*) FROM act.commit('src-b', '[{"name": "C"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "fast", "source": "src-a", "lane": "hot"},
                                     {"stream": "slow", "source": "src-b"},
                                     {"stream": "every", "lane": "hot"},
                                     {"stream": "idle", "source": "nothing"}]');
SELECT count(*) FROM act.claim(1, 0, 'w-1', 60000, 'hot');   -- leases one hot row
SELECT count(*) FROM act.claim(1, 0, 'w-2', 1, 'default');   -- slow, with a lease that expires at once
SELECT pg_sleep(0.01);
SELECT count(*) FROM act.block(jsonb_build_array(jsonb_build_object('stream', 'slow', 'by', 'w-2', 'error', 'printer on fire')));

SELECT is((SELECT (mode, horizon, max_event_id) FROM act.status())::text,
          (SELECT (act.mode(), act.horizon(), act.max_event_id()))::text, 'status: mode, horizon, log head');
SELECT is((SELECT subscriptions FROM act.status()), 4::bigint, 'status: every subscription counted');
SELECT is((SELECT with_work FROM act.status()), 2::bigint, 'status: fast and every have work');
SELECT is((SELECT blocked FROM act.status()), 1::bigint, 'status: slow is blocked');
SELECT is((SELECT leased FROM act.status()), 1::bigint, 'status: one live lease');
SELECT ok((SELECT oldest_work_age >= interval '0' FROM act.status()), 'status: the oldest work has an age');
SELECT is((SELECT expired_leases FROM act.status()), 0::bigint,
  'status: slow''s lease ran out, but slow is blocked: counted as blocked, not as an expired lease');
SELECT ok((SELECT horizon_held_for >= interval '0' FROM act.status()),
  'status: this open transaction, which committed, holds the horizon back');

SELECT is((SELECT array_agg(stream ORDER BY stream) FROM act.lag()), ARRAY['every', 'fast', 'slow'],
  'lag lists rows with work and blocked rows, not idle ones');
SELECT is((SELECT waiting_id FROM act.lag() WHERE stream = 'fast'), (SELECT min(id) FROM act.events WHERE stream = 'src-a'),
  'a literal source waits on its stream''s first unhandled event');
SELECT is((SELECT error FROM act.lag() WHERE stream = 'slow'), 'printer on fire', 'a blocked row shows its error');
SELECT is((SELECT array_agg(stream ORDER BY stream) FROM act.lag('hot')), ARRAY['every', 'fast'], 'lag by lane');
SELECT is((SELECT count(*) FROM act.lag(max_rows => 1)), 1::bigint, 'lag stops at max_rows');
SELECT is((SELECT stream FROM act.lag(max_rows => 1)), 'every', 'the oldest waiting event first (every waits on id 1)');
SELECT count(*) FROM act.subscribe('[{"stream": "solo", "source": "src-a", "lane": "solo"}]');
SELECT count(*) FROM act.claim(1, 0, 'w-3', 60000, 'solo');
SELECT count(*) FROM act.ack(jsonb_build_array(jsonb_build_object('stream', 'solo', 'by', 'w-3',
  'at', (SELECT min(id) FROM act.events WHERE stream = 'src-a'))));
SELECT is((SELECT waiting_id FROM act.lag('solo')), (SELECT max(id) FROM act.events WHERE stream = 'src-a'),
  'after an ack a literal source waits on the next event of its stream');
SELECT count(*) FROM act.ack('[{"stream": "every", "by": "w-1", "at": 1}]');
SELECT is((SELECT waiting_id FROM act.lag() WHERE stream = 'every'), 2::bigint,
  'a source-less row waits on the next event of the log');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.lag(max_rows => 0)$$, '22023', 'max_rows must be 1 or more, not 0', 'lag max_rows 0');

SELECT ok((SELECT bool_and(labels = '{}' OR (labels ?& ARRAY['lane'] AND (SELECT count(*) FROM jsonb_object_keys(labels)) = 1))
             FROM act.metrics()), 'metric labels carry only a lane, never a stream');
SELECT is((SELECT value FROM act.metrics() WHERE metric = 'pg_act_subscriptions_blocked' AND labels = '{"lane": "default"}'),
  1::double precision, 'blocked per lane');
SELECT is((SELECT value FROM act.metrics() WHERE metric = 'pg_act_subscriptions'), 5::double precision, 'the subscription count (solo added)');
SELECT ok((SELECT count(DISTINCT metric) >= 10 FROM act.metrics()), 'every figure of status is a metric');
SELECT is((SELECT value FROM act.metrics() WHERE metric = 'pg_act_expired_leases'), 0::double precision,
  'a blocked row is no expired lease in the metrics either');
-- A lease that ran out on a row that is not blocked is an expired lease.
SELECT count(*) FROM act.subscribe('[{"stream": "late", "source": "src-b", "lane": "late"}]');
SELECT count(*) FROM act.claim(1, 0, 'w-4', 1, 'late');
SELECT pg_sleep(0.01);
SELECT is((SELECT expired_leases FROM act.status()), 1::bigint, 'status: late''s lease ran out');
SELECT is((SELECT value FROM act.metrics() WHERE metric = 'pg_act_expired_leases'), 1::double precision,
  'metrics: late''s lease ran out');
SELECT is((SELECT blocked FROM act.status()), 1::bigint, 'status: slow is still the one blocked row');

-- The oldest waiting event, found without looking up every row's: the lowest
-- act.lag finds among rows not blocked (fast, claimed, still waits on 1).
SELECT is(act._oldest_waiting(), (SELECT min(waiting_id) FROM act.lag(max_rows => 1000) WHERE NOT blocked),
  'status: the oldest waiting event is the lowest of act.lag''s');
SELECT is(act._oldest_waiting(), 1::bigint, 'status: fast waits on event 1, the oldest waited for');
-- 200 rows more waiting on their streams; every back to waiting on event 1.
SELECT count(*) FROM generate_series(1, 200) i, act.commit('many-src-' || i, '[{"name": "M"}]');
SELECT count(*) FROM act.subscribe((SELECT jsonb_agg(jsonb_build_object('stream', 'many-' || i, 'source', 'many-src-' || i))
                                      FROM generate_series(1, 200) i));
SELECT count(*) FROM act.reset('["every"]');
CREATE TEMP TABLE events_read AS
  SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_xact_user_tables WHERE relid = 'act.events'::regclass;
SELECT is((SELECT with_work FROM act.status()), 204::bigint, 'status: 200 rows more with work (fast, every, solo, late)');
SELECT cmp_ok((SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables
                WHERE relid = 'act.events'::regclass) - (SELECT n FROM events_read), '<', 20::bigint,
  'status: a few events read, not the one each of 200 rows waits on');
SELECT is(act._oldest_waiting(), (SELECT min(waiting_id) FROM act.lag(max_rows => 1000) WHERE NOT blocked),
  'status: the oldest waiting event is still the lowest of act.lag''s');

-- Bounded cost: with 100,000 subscriptions (none with work) the plans of the
-- monitoring queries read through indexes only.
INSERT INTO act.subscription_rows (stream, source) SELECT 'bulk-' || i, 'bulk-src-' || i FROM generate_series(1, 100000) i;
ANALYZE act.subscription_rows;
CREATE FUNCTION pg_temp.plan_of(statement text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  plan json;
BEGIN
  SET LOCAL enable_seqscan = off;
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || statement INTO plan;
  RETURN plan::text;
END $$;
SELECT unalike(pg_temp.plan_of(substring(pg_get_functiondef('act._pending()'::regprocedure) FROM 'BEGIN ATOMIC\s*(.*);\s*END')),
  '%"Seq Scan"%', 'act._pending (behind status, lag, metrics) scans no table whole');
SELECT unalike(pg_temp.plan_of(substring(pg_get_functiondef('act._work_counts()'::regprocedure) FROM 'BEGIN ATOMIC\s*(.*);\s*END')),
  '%"Seq Scan"%', 'act._work_counts (behind status and metrics) scans no table whole');
SELECT unalike(pg_temp.plan_of('SELECT count(*) FROM act.subscription_rows'), '%"Seq Scan"%',
  'the subscription count is an index-only scan');

SELECT * FROM finish();
ROLLBACK;
