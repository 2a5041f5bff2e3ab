-- Idempotent commits: meta.idempotency_key makes a commit land at most once
-- per stream; its retries get the rows it wrote, whatever their expected
-- version; a retry with other events, or a malformed key, is refused with
-- nothing written. act.commit_by_key finds a keyed commit.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT has_function('act', 'commit_by_key', ARRAY['text', 'text'], 'act.commit_by_key(stream, idempotency_key)');

CREATE TEMP TABLE first_commit AS
  SELECT * FROM act.commit('k-1', '[{"name": "Placed", "data": {"n": 1}, "pii": {"email": "a@b"}}, {"name": "Paid"}]',
                           '{"idempotency_key": "order-1"}', -1);
SELECT is((SELECT count(*) FROM first_commit), 2::bigint, 'a keyed commit writes its events');

-- Retries: the same events, whatever the expected version says now.
SELECT results_eq($$SELECT id, version, name FROM act.commit('k-1', '[{"name": "Placed", "data": {"n": 1}}, {"name": "Paid"}]',
                                                              '{"idempotency_key": "order-1"}', -1)$$,
  'SELECT id, version, name FROM first_commit ORDER BY version',
  'a retry with the stale expected version gets the rows the first commit wrote');
SELECT results_eq($$SELECT id FROM act.commit('k-1', '[{"name": "Placed", "data": {"n": 1}}, {"name": "Paid"}]',
                                               '{"idempotency_key": "order-1", "attempt": 2}')$$,
  'SELECT id FROM first_commit ORDER BY version', 'a retry without an expected version, with other meta, gets them too');
SELECT is((SELECT count(*) FROM act.events WHERE stream = 'k-1'), 2::bigint, 'the retries wrote nothing');
SELECT results_eq($$SELECT id, version, name, data, meta, pii, created, hash FROM act.commit_by_key('k-1', 'order-1')$$,
  'SELECT id, version, name, data, meta, pii, created, hash FROM first_commit ORDER BY version',
  'act.commit_by_key returns the keyed commit''s rows, by version');
SELECT is((SELECT count(*) FROM act.commit_by_key('k-1', 'order-2')), 0::bigint, 'an unknown key: no rows');
SELECT is((SELECT count(*) FROM act.commit_by_key('k-missing', 'order-1')), 0::bigint, 'an unknown stream: no rows');

-- Keys are per stream.
SELECT is((SELECT version FROM act.commit('k-1', '[{"name": "Shipped"}]', '{"idempotency_key": "order-2"}', 1)), 2,
  'another key on the same stream writes');
SELECT is((SELECT version FROM act.commit('k-2', '[{"name": "Placed", "data": {"n": 1}}, {"name": "Paid"}]',
                                          '{"idempotency_key": "order-1"}') ORDER BY version LIMIT 1), 0,
  'the same key on another stream writes');
SELECT is((SELECT count(*) FROM act.commit('k-1', '[]', '{"idempotency_key": "order-1"}', 2)), 0::bigint,
  'an empty list with a key returns nothing');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('k-1', '[]', '{"idempotency_key": "order-1"}', 1)$$,
  '40001', 'concurrency conflict on stream "k-1": expected version 1, actual version 2',
  'an empty list with a key checks the expected version as always');
SELECT is((SELECT count(*) FROM act.commit('k-1', '[{"name": "Noted"}]', '{"idempotency_key": "order-1 "}')), 1::bigint,
  'keys are compared exactly (a trailing space is another key)');

-- A retry must send the same events.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('k-1', '[{"name": "Placed", "data": {"n": 2}}, {"name": "Paid"}]',
                                                           '{"idempotency_key": "order-1"}')$$,
  '22023', 'idempotency key "order-1" of stream "k-1" belongs to a commit with other events (versions 0 to 1): a retry must send the same events',
  'a retry with other data');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('k-1', '[{"name": "Placed", "data": {"n": 1}}]',
                                                           '{"idempotency_key": "order-1"}', 1)$$,
  '22023', 'idempotency key "order-1" of stream "k-1" belongs to a commit with other events (versions 0 to 1)%',
  'a retry with fewer events');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('k-1', '[{"name": "Paid"}, {"name": "Placed", "data": {"n": 1}}]',
                                                           '{"idempotency_key": "order-1"}')$$,
  '22023', 'idempotency key "order-1" of stream "k-1"%', 'a retry with the events in another order');

-- Malformed keys.
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('k-3', '[{"name": "A"}]', '{"idempotency_key": 7}')$$,
  '22023', 'meta.idempotency_key for stream "k-3" must be a string, not a number', 'a number as key');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('k-3', '[{"name": "A"}]', '{"idempotency_key": ""}')$$,
  '22023', 'meta.idempotency_key for stream "k-3" must not be empty', 'an empty key');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.commit('k-3', '[{"name": "A"}]', '{"idempotency_key": "%s"}')$$, repeat('k', 201)),
  '22023', 'meta.idempotency_key for stream "k-3" takes 201 bytes: the limit is 200 bytes', 'a key over 200 bytes');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit_by_key(NULL, 'order-1')$$, '22004', 'stream must not be null',
  'act.commit_by_key: a NULL stream');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit_by_key('k-1', '')$$, '22023',
  'meta.idempotency_key for stream "k-1" must not be empty', 'act.commit_by_key: an empty key');

-- Personal data: a retry by a role that may not read it gets it as NULL.
CREATE ROLE app_keyed_writer IN ROLE act_writer;
SET ROLE app_keyed_writer;
CREATE TEMP TABLE writer_retry AS
  SELECT * FROM act.commit('k-1', '[{"name": "Placed", "data": {"n": 1}}, {"name": "Paid"}]', '{"idempotency_key": "order-1"}');
RESET ROLE;
SELECT is((SELECT count(*) FROM writer_retry WHERE pii IS NOT NULL), 0::bigint, 'a writer''s retry gets no pii');
SELECT is((SELECT count(*) FROM writer_retry), 2::bigint, 'but every row');

-- A key lives as long as its events: after a truncate it is free, and the
-- closed stream refuses the commit.
SELECT is((SELECT deleted FROM act.truncate('[{"stream": "k-2"}]')), 2::bigint, 'k-2 truncated and closed');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('k-2', '[{"name": "Placed", "data": {"n": 1}}, {"name": "Paid"}]',
                                                           '{"idempotency_key": "order-1"}')$$,
  '55000', 'stream "k-2" is closed', 'a keyed commit to a stream closed by a truncate');

SELECT * FROM finish();
ROLLBACK;
