-- act.version, act.max_event_id, act.horizon, act.wait, act.mode, act.horizon_holders.
BEGIN;
SELECT * FROM no_plan();

SELECT is(act.mode(), CASE WHEN current_setting('shared_preload_libraries') LIKE '%pg_act%' THEN 'concurrent' ELSE 'fenced' END,
  'concurrent exactly when preloaded, fenced otherwise');
SELECT is(act.version('h-1'), -1, 'version of a missing stream is -1');
SELECT is(act.max_event_id(), -1::bigint, 'max_event_id of an empty log is -1');
SELECT is(act.horizon(), -1::bigint, 'horizon of an empty log is -1');
SELECT count(*) FROM act.commit('h-1', '[{"name": "A"}, {"name": "B"}]');
SELECT count(*) FROM act.commit('h-2', '[{"name": "__snapshot__", "data": {}}]');
SELECT is(act.version('h-1'), 1, 'version is the last version');
SELECT is(act.version('h-2'), 0, 'version counts a snapshot');
SELECT is(act.version('H-1'), -1, 'version matches the name exactly (case)');
SELECT is(act.version(NULL), -1, 'version of a NULL stream is -1, as documented');
SELECT is(act.max_event_id(), 3::bigint, 'max_event_id counts snapshots');
SELECT is(act.horizon(), 3::bigint, 'with nothing else in flight the horizon is the last id (own commits included)');
SELECT is(act.wait(1, 1000), 3::bigint, 'wait returns at once when the horizon is past after');
CREATE TEMP TABLE waited AS SELECT clock_timestamp() AS t0, act.wait(3, 200) AS h, clock_timestamp() AS t1;
SELECT is((SELECT h FROM waited), 3::bigint, 'wait returns the horizon at the timeout');
SELECT ok((SELECT t1 - t0 >= interval '190 ms' FROM waited), 'wait waited for the timeout');
SELECT is((SELECT count(*) FROM act.horizon_holders() WHERE pid = pg_backend_pid()), 1::bigint,
  'this transaction holds the horizon back for others and shows as a holder');
-- Never decreasing, also in the writer's own session across a rollback
-- (psql variables: a table row written inside the savepoint would go too).
SELECT act.horizon() AS before_own \gset
SAVEPOINT own_commit;
SELECT count(*) FROM act.commit('h-3', '[{"name": "A"}, {"name": "B"}]');
SELECT act.horizon() AS with_own \gset
ROLLBACK TO own_commit;
SELECT act.horizon() AS rolled_back \gset
SELECT ok(:with_own >= :before_own, 'own uncommitted events never lower the horizon');
SELECT ok(:rolled_back >= :with_own, 'a rollback of them never lowers it either');
SELECT is((SELECT count(*) FROM act.query(after => :before_own)), 0::bigint, 'and the rolled-back ids never appear');
SELECT ok(act.wait(:rolled_back - 1, 0) >= :rolled_back, 'act.wait agrees with it');
SELECT throws_ok('SELECT act.wait(0, -1)', '22023', 'timeout_ms must be 0 or more, not -1', 'negative timeout');
SELECT throws_ok('SELECT act.wait(NULL, 10)', '22004', NULL, 'NULL after');

SELECT * FROM finish();
ROLLBACK;
