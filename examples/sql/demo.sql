-- The pg_act demo: commits, a conflict, reads, a closed stream, a verified chain.
\set ON_ERROR_STOP 0
\pset pager off
\echo '== CREATE EXTENSION pg_act'
CREATE EXTENSION pg_act;
SELECT act.mode() AS mode;

\echo '== open a ticket and work on it: three commits with expected versions'
SELECT id, stream, version, name, data
  FROM act.commit('ticket-1', '[{"name": "Opened", "data": {"title": "Printer on fire", "priority": "high"}}]',
                  '{"correlation": "demo", "actor": "ann"}', -1);
SELECT id, stream, version, name, data
  FROM act.commit('ticket-1', '[{"name": "Assigned", "data": {"to": "bob"}}, {"name": "Commented", "data": {"text": "on it"}}]',
                  '{"correlation": "demo", "actor": "bob"}', 0);
SELECT id, stream, version, name FROM act.commit('ticket-2', '[{"name": "Opened", "data": {"title": "Coffee machine"}}]');

\echo '== a writer with a stale view of ticket-1 is refused (SQLSTATE 40001), nothing is written'
SELECT * FROM act.commit('ticket-1', '[{"name": "Closed"}]', '{}', 0);

\echo '== read everything after id 1, then one stream backward'
SELECT id, stream, version, name, data FROM act.query(after => 1);
SELECT version, name FROM act.query('ticket-1', backward => true);

\echo '== close ticket-2: later commits are refused (SQLSTATE 55000)'
SELECT stream, deleted, version, name FROM act.truncate('[{"stream": "ticket-2"}]');
SELECT * FROM act.commit('ticket-2', '[{"name": "Reopened"}]');

\echo '== a reaction: the notifier subscribes to ticket-1 and is back-filled from history'
SELECT subscribed FROM act.subscribe('[{"stream": "notifier", "source": "ticket-1"}]');
SELECT stream, source, at, correlated_at FROM act.subscriptions;

\echo '== a worker claims it, reads what it has not handled, acks the last id'
SELECT stream, source, at, by, retry FROM act.claim(5, 0, 'worker-1', 30000, lane => 'default');
SELECT id, name, data FROM act.query('ticket-1', after => -1);
SELECT stream, at FROM act.ack('[{"stream": "notifier", "by": "worker-1", "at": 3}]');

\echo '== a new commit marks the subscription: claimable again, then caught up'
SELECT id, version, name FROM act.commit('ticket-1', '[{"name": "Commented", "data": {"text": "fixed"}}]');
SELECT stream, at, correlated_at, at < correlated_at AS has_work FROM act.subscriptions;
SELECT stream, at FROM act.ack((SELECT jsonb_agg(to_jsonb(c) || '{"at": 6}') FROM act.claim(5, 0, 'worker-2', 30000, lane => 'default') c));
SELECT stream, at, correlated_at, at < correlated_at AS has_work FROM act.subscriptions;

\echo '== the hash chain of every stream verifies'
SELECT * FROM act.verify();
SELECT stream, version, name, encode(hash, 'hex') AS hash FROM act.events ORDER BY id;

\echo '== someone edits an event behind the store''s back: verify names the version'
UPDATE act.events SET data = '{"to": "mallory"}' WHERE stream = 'ticket-1' AND version = 1;
SELECT * FROM act.verify('ticket-1');
