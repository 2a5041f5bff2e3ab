-- act.claim_events' wait_millis across sessions (dblink connections of their
-- own, which commit as they go): a claim that finds nothing waits in the
-- server; a commit that gives it no work leaves it waiting; the commit that
-- does wakes it, and the same call returns that work. A cancel ends it.
-- REPEATABLE READ refuses a wait (acks beside a wait: claim_events.sql).
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

CREATE EXTENSION dblink;
CREATE FUNCTION pg_temp.connect(name text) RETURNS text LANGUAGE sql AS $$
  SELECT dblink_connect(name, format('host=%s port=%s dbname=%s user=%s', current_setting('unix_socket_directories'),
                                     current_setting('port'), current_database(), current_user))
$$;
-- True once the backend sleeps in act.claim_events' wait (concurrent mode: on
-- the horizon's condition variable; fenced mode: between polls); false when
-- it has not within 30 s (it returned instead, or never waited).
CREATE FUNCTION pg_temp.sleeping_in_claim(backend int) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  FOR attempt IN 1..3000 LOOP
    PERFORM pg_stat_clear_snapshot();  -- pg_stat_activity is otherwise read once a transaction
    IF EXISTS (SELECT 1 FROM pg_stat_activity
                WHERE pid = backend AND state = 'active' AND wait_event_type = 'Extension'
                  AND query LIKE '%act.claim_events%') THEN
      RETURN true;
    END IF;
    PERFORM pg_sleep(0.01);
  END LOOP;
  RETURN false;
END $$;

SELECT pg_temp.connect('writer');
SELECT pg_temp.connect('waiter');
SELECT * FROM dblink('writer', $$SELECT count(*) FROM act.subscribe('[{"stream": "rw", "source": "src-w"}]')$$) AS t(n bigint);
CREATE TEMP TABLE waiter AS SELECT pid FROM dblink('waiter', 'SELECT pg_backend_pid()') AS t(pid int);

SELECT is(dblink_send_query('waiter', $$SELECT stream, jsonb_array_length(events) FROM act.claim_events(1, 0, 'waiter', 60000, wait_millis => 30000)$$),
  1, 'the waiting claim is sent');
SELECT ok(pg_temp.sleeping_in_claim((SELECT pid FROM waiter)), 'finding nothing, the claim waits in the server');
SELECT * FROM dblink('writer', $$SELECT count(*) FROM act.commit('src-other', '[{"name": "Other"}]')$$) AS t(n bigint);
SELECT ok(pg_temp.sleeping_in_claim((SELECT pid FROM waiter)), 'a commit that gives it no work leaves it waiting');
SELECT * FROM dblink('writer', $$SELECT count(*) FROM act.commit('src-w', '[{"name": "W"}]')$$) AS t(n bigint);
SELECT is((SELECT array_agg(stream || ':' || events) FROM dblink_get_result('waiter') AS t(stream text, events int)),
  ARRAY['rw:1'], 'the commit that does wakes it, and the same call hands over that work');
SELECT is((SELECT count(*) FROM dblink_get_result('waiter') AS t(stream text, events int)), 0::bigint, 'and the call is over');

-- A cancel ends the wait and the call, which wrote nothing.
SELECT dblink_send_query('waiter', $$SELECT stream FROM act.claim_events(1, 0, 'waiter', 60000, wait_millis => 30000)$$);
SELECT ok(pg_temp.sleeping_in_claim((SELECT pid FROM waiter)), 'waiting again, rw leased by the last call');
SELECT is(dblink_cancel_query('waiter'), 'OK', 'the wait is cancelled');
SELECT alike(pg_temp.outcome($$SELECT * FROM dblink_get_result('waiter') AS t(stream text)$$), '57014: %',
  'the cancelled call fails with 57014');
SELECT is((SELECT count(*) FROM dblink_get_result('waiter', false) AS t(stream text)), 0::bigint, 'and is over');
SELECT is((SELECT leased_by FROM act.subscriptions WHERE stream = 'rw'), 'waiter', 'the lease of the call before stays');

-- REPEATABLE READ: the transaction's snapshot would never see the commit.
SELECT dblink_exec('waiter', 'BEGIN ISOLATION LEVEL REPEATABLE READ');
SELECT throws_ok($$SELECT * FROM dblink('waiter', 'SELECT count(*) FROM act.claim_events(1, 0, ''w'', 60000, wait_millis => 10)') AS t(n bigint)$$,
  '22023', 'wait_millis must be 0 under REPEATABLE READ or SERIALIZABLE, not 10: the transaction''s snapshot never sees a later commit',
  'a wait under REPEATABLE READ');
SELECT dblink_exec('waiter', 'ROLLBACK');

SELECT dblink_disconnect('waiter');
SELECT dblink_disconnect('writer');
SELECT * FROM finish();
ROLLBACK;
