-- Cumulative counters: in concurrent mode they count what committed (and
-- conflicts as they are raised), per database, until act.reset_counters();
-- in fenced mode there are none. No BEGIN around this suite: counts are
-- published when a transaction commits, so each statement commits on its own.
SELECT * FROM no_plan();

\ir lib/refused.sql

-- A counter's value, NULL when there is none (fenced mode).
CREATE FUNCTION pg_temp.counter(name text) RETURNS bigint LANGUAGE sql AS $$
  SELECT value FROM act._counters() WHERE counter = name
$$;
-- What a counter should read: `concurrent` in concurrent mode, none in fenced mode.
CREATE FUNCTION pg_temp.expect(concurrent bigint) RETURNS bigint LANGUAGE sql AS $$
  SELECT CASE act.mode() WHEN 'concurrent' THEN concurrent END
$$;

SELECT is((SELECT count(*) FROM act._counters()), CASE act.mode() WHEN 'concurrent' THEN 7 ELSE 0 END::bigint,
  'seven counters in concurrent mode, none in fenced mode');
SELECT is(pg_temp.outcome('SELECT act.reset_counters()'),
  CASE act.mode() WHEN 'concurrent' THEN '00000'
       ELSE '55000: pg_act keeps counters only when preloaded: add pg_act to shared_preload_libraries' END,
  'reset zeroes the counters; fenced mode says why it has none');
SELECT is((SELECT sum(value) FROM act._counters()), pg_temp.expect(0)::numeric, 'after a reset every counter is 0');

SELECT count(*) FROM act.commit('c-1', '[{"name": "A"}, {"name": "B"}]');
SELECT is(pg_temp.counter('commits'), pg_temp.expect(1), 'a commit counts once');
SELECT is(pg_temp.counter('events'), pg_temp.expect(2), 'and its events each');

BEGIN;
SELECT count(*) FROM act.commit('c-2', '[{"name": "A"}]');
ROLLBACK;
BEGIN;
SAVEPOINT before_commit;
SELECT count(*) FROM act.commit('c-3', '[{"name": "A"}]');
ROLLBACK TO before_commit;
SELECT count(*) FROM act.commit('c-4', '[{"name": "A"}]');
COMMIT;
SELECT is(pg_temp.counter('commits'), pg_temp.expect(2),
  'a rolled-back commit and one rolled back to a savepoint do not count');
SELECT is(pg_temp.counter('events'), pg_temp.expect(3), 'nor do their events');
SELECT count(*) FROM act.commit('c-5', '[]');
SELECT is(pg_temp.counter('commits'), pg_temp.expect(2), 'an empty commit (a check) is not a commit');

SELECT pg_temp.outcome($$SELECT * FROM act.commit('c-1', '[{"name": "C"}]', '{}', 0)$$);
SELECT is(pg_temp.counter('conflicts'), pg_temp.expect(1), 'a version conflict counts though its transaction aborts');
SELECT is(pg_temp.counter('commits'), pg_temp.expect(2), 'and is not a commit');

SELECT count(*) FROM act.subscribe('[{"stream": "r-1", "source": "c-1"}, {"stream": "r-4", "source": "c-4"},
                                     {"stream": "r-all"}]');
SELECT count(*) FROM act.claim(10, 0, 'w-1', 1);
SELECT is(pg_temp.counter('claims'), pg_temp.expect(3), 'every claimed stream counts');
SELECT is(pg_temp.counter('retries'), pg_temp.expect(0), 'a first claim is no retry');
SELECT pg_sleep(0.01);
SELECT count(*) FROM act.claim(10, 0, 'w-2', 60000);
SELECT is(pg_temp.counter('retries'), pg_temp.expect(3), 'claims after a lease ran out are retries');
SELECT count(*) FROM act.ack(jsonb_build_array(jsonb_build_object('stream', 'r-1', 'by', 'w-2', 'at', 2),
                                               jsonb_build_object('stream', 'r-4', 'by', 'w-1', 'at', 4)));
SELECT is(pg_temp.counter('acks'), pg_temp.expect(1), 'an ack counts what it acknowledged, not a lost lease');
SELECT count(*) FROM act.block('[{"stream": "r-all", "by": "w-2", "error": "boom"}]');
SELECT is(pg_temp.counter('blocks'), pg_temp.expect(1), 'a block counts');

SELECT is((SELECT array_agg(metric ORDER BY metric) FILTER (WHERE metric LIKE '%\_total' OR metric LIKE '%counters%')
             FROM act.metrics()),
  CASE act.mode() WHEN 'concurrent' THEN
    ARRAY['pg_act_acks_total', 'pg_act_blocks_total', 'pg_act_claims_total', 'pg_act_commits_total',
          'pg_act_conflicts_total', 'pg_act_counters_reset_time_seconds', 'pg_act_events_total',
          'pg_act_retries_total'] END,
  'act.metrics shows the counters as Prometheus counters, with the time of the last reset');

CREATE ROLE counters_reader LOGIN;
GRANT act_worker TO counters_reader;
SET ROLE counters_reader;
SELECT is(pg_temp.outcome('SELECT act.reset_counters()'),
  '42501: permission denied for function reset_counters', 'only act_admin may reset the counters');
RESET ROLE;
DROP ROLE counters_reader;

SELECT * FROM finish();
