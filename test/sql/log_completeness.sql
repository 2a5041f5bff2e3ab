-- Nothing missing goes unseen: removal records of act.truncate, and every way
-- an owner can remove or add history reported by act.verify_log, one row per
-- problem (docs/verifiable-log.md, "Removal records" and "Threat model").
BEGIN;
SELECT * FROM no_plan();

-- Streams a, b, c: 5 events each, interleaved; d with a snapshot. Sealed
-- and checkpointed.
DO $$
BEGIN
  FOR v IN 1..5 LOOP
    PERFORM act.commit(s, '[{"name": "E"}]') FROM unnest('{a,b,c}'::text[]) s;
  END LOOP;
END $$;
SELECT count(*) FROM act.commit('d', '[{"name": "E"}, {"name": "__snapshot__", "data": {"n": 1}}, {"name": "E"}]');
SELECT size AS sealed FROM act.seal() \gset
SELECT act.checkpoint() IS NOT NULL;
SELECT is_empty('SELECT * FROM act.verify_log()', 'an intact log verifies');

-- Legitimate removals: a close, a compaction, a retention window; each call
-- writes one removal record that accounts for what it deleted.
CREATE TEMP TABLE a_entries AS SELECT e.id, act.log_position(e.id) AS position FROM act.events e WHERE e.stream = 'a';
SELECT count(*) FROM act.truncate('[{"stream": "a"}]');
SELECT results_eq($$SELECT stream, version, name FROM act.events WHERE stream = '__truncations__'$$,
  $$VALUES ('__truncations__', 0, '__tombstone__')$$, 'a truncate writes one removal record, a tombstone of __truncations__');
SELECT is((SELECT data ->> 'removed' FROM act.events WHERE stream = '__truncations__'), '5',
  'which states the five entries it removed');
SELECT is((SELECT array_agg(p ORDER BY p) FROM act.log_removals r, unnest(r.positions) run,
                  generate_series(lower(run), upper(run) - 1) p),
  (SELECT array_agg(position ORDER BY position) FROM a_entries),
  'act.log_removals lists exactly the positions of the deleted events');
SELECT results_eq('SELECT removed, record_position FROM act.log_removals()', 'VALUES (5::bigint, NULL::bigint)',
  'act.log_removals() counts them; the record has no position until sealed');
SELECT is_empty('SELECT * FROM act.verify_log()', 'the log verifies before the record is sealed');
SELECT act.seal() IS NOT NULL;
SELECT ok((SELECT r.record_position > (SELECT max(position) FROM a_entries) FROM act.log_removals() r),
  'the record is sealed after what it removed');
SELECT is_empty('SELECT * FROM act.verify_log()', 'and after');
SELECT count(*) FROM act.truncate(format('[{"stream": "d", "before": %s}]', to_jsonb(clock_timestamp()))::jsonb);
SELECT is((SELECT data ->> 'removed' FROM act.events WHERE stream = '__truncations__' AND version = 1), '1',
  'a retention window''s truncate records the one event before its snapshot');
SELECT count(*) FROM act.truncate('[{"stream": "b", "snapshot": {"n": 5}}, {"stream": "nothing-here"}]');
SELECT is((SELECT count(*) FROM act.events WHERE stream = '__truncations__'), 3::bigint, 'one record per truncate call');
SELECT count(*) FROM act.truncate('[{"stream": "nothing-here-either"}]');
SELECT is((SELECT count(*) FROM act.events WHERE stream = '__truncations__'), 3::bigint, 'none when nothing was deleted');
SELECT count(*) FROM act.commit('e', '[{"name": "E", "pii": {"email": "e@example.com"}}]');
SELECT act.forget_pii('e');
SELECT act.checkpoint() IS NOT NULL;
SELECT is_empty('SELECT * FROM act.verify_log()', 'a log after closes, compactions, windows and forgets verifies');
SELECT is((SELECT bool_and(valid) FROM act.verify('__truncations__')), true, 'the records chain like any stream');
SELECT throws_ok($$SELECT act.commit('__truncations__', '[{"name": "X"}]')$$, '55000', NULL,
  'nobody commits to __truncations__: its tombstone closes it');
SELECT throws_ok($$SELECT act.truncate('[{"stream": "__truncations__"}]')$$, '22023',
  'targets[0].stream "__truncations__" holds the log''s removal records: it cannot be truncated', 'nor truncates it');
SELECT is((SELECT count(*) FROM act.events WHERE stream = '__truncations__'), 3::bigint, 'and the refusal wrote nothing');

-- Every tamper of an owner, each reported. c's entries, and a burned id.
CREATE TEMP TABLE c_entries AS
  SELECT e.id, e.version, act.log_position(e.id) AS position FROM act.events e WHERE e.stream = 'c';
CREATE FUNCTION pg_temp.missing(since int) RETURNS SETOF text LANGUAGE sql AS $$
  SELECT format('event %s of entry %s is missing from act.events and no removal record accounts for it', id, position)
    FROM c_entries WHERE version >= since ORDER BY position
$$;
CREATE FUNCTION pg_temp.problems() RETURNS SETOF text LANGUAGE sql AS $$
  SELECT problem FROM act.verify_log() ORDER BY position, id, problem
$$;
SAVEPOINT burn;
SELECT count(*) FROM act.commit('burned', '[{"name": "E"}]');
ROLLBACK TO burn;
SELECT count(*) FROM act.commit('f', '[{"name": "E"}]');
SELECT act.seal() IS NOT NULL;
SELECT max(id) - 1 AS burned_id FROM act.events \gset
SAVEPOINT tamper;

DELETE FROM act.events WHERE stream = 'c' AND version >= 3;
SELECT results_eq('SELECT * FROM pg_temp.problems()', 'SELECT * FROM pg_temp.missing(3)',
  'a stream''s head deleted after seal and checkpoint: each missing entry, one row');
SELECT is((SELECT valid FROM act.verify('c')), true, '(act.verify of the stream alone cannot tell)');
ROLLBACK TO tamper;

DELETE FROM act.events WHERE stream = 'c';
SELECT results_eq('SELECT * FROM pg_temp.problems()', 'SELECT * FROM pg_temp.missing(0)', 'a whole stream deleted');
ROLLBACK TO tamper;

INSERT INTO act.stream_anchors (stream, version, prev)
  SELECT 'c', 2, hash FROM act.events WHERE stream = 'c' AND version = 1;
DELETE FROM act.events WHERE stream = 'c' AND version < 2;
SELECT is((SELECT valid FROM act.verify('c')), true, 'a head deleted behind a forged anchor passes act.verify');
SELECT results_eq('SELECT * FROM pg_temp.problems()',
  $$SELECT format('event %s of entry %s is missing from act.events and no removal record accounts for it', id, position)
      FROM c_entries WHERE version < 2 ORDER BY position$$, 'but not act.verify_log');
ROLLBACK TO tamper;

INSERT INTO act.events (id, stream, version, name, data, meta, created, hash)
  VALUES (0, 'ghost', 0, 'E', '{}', '{}', now(), sha256('x'));
SELECT results_eq('SELECT id, problem FROM act.verify_log()', $$VALUES (0::bigint, 'event 0 is in act.events but not in the log')$$,
  'an event with an id below the first entry');
ROLLBACK TO tamper;

INSERT INTO act.events (id, stream, version, name, data, meta, created, hash)
  VALUES (:burned_id, 'ghost', 0, 'E', '{}', '{}', now(), sha256('x'));
SELECT results_eq('SELECT id, problem FROM act.verify_log()',
  format($$VALUES (%s::bigint, 'event %s is in act.events but not in the log')$$, :burned_id, :burned_id),
  'an event at a burned id below what is sealed');
ROLLBACK TO tamper;

DELETE FROM act.events WHERE stream = '__truncations__' AND version = 0;
SELECT ok((SELECT bool_or(problem LIKE 'removal record % is listed in act.log_removals but its event is missing from act.events')
             AND bool_or(problem LIKE 'event % of entry % is missing from act.events and no removal record accounts for it')
             FROM act.verify_log()), 'a removal record''s event deleted: the record and its own entry');
ROLLBACK TO tamper;

UPDATE act.log_removals SET positions = positions - int8multirange(int8range(
  (SELECT max(position) FROM a_entries), (SELECT max(position) FROM a_entries) + 1));
SELECT ok((SELECT bool_or(problem LIKE 'removal record % states 5 entries removed but act.log_removals lists 4 %')
             AND bool_or(position = (SELECT max(position) FROM a_entries)
                         AND problem LIKE '% is missing from act.events and no removal record accounts for it')
             FROM act.verify_log()), 'a position taken out of a record: the record, and the entry it no longer covers');
ROLLBACK TO tamper;

-- The same count and bounds, another position: only the digest tells.
DELETE FROM act.events WHERE stream = 'c' AND version = 2;
UPDATE act.log_removals SET positions = positions
  - int8multirange(int8range((SELECT position FROM a_entries ORDER BY position OFFSET 2 LIMIT 1),
                             (SELECT position FROM a_entries ORDER BY position OFFSET 2 LIMIT 1) + 1))
  + int8multirange(int8range((SELECT position FROM c_entries WHERE version = 2), (SELECT position FROM c_entries WHERE version = 2) + 1))
 WHERE record_id = (SELECT id FROM act.events WHERE stream = '__truncations__' AND version = 0);
SELECT ok((SELECT bool_or(problem LIKE 'removal record % lists entries that do not match the digest its event states: act.log_removals was changed')
             FROM act.verify_log()), 'a record''s positions swapped for a tampered deletion: the digest differs');
ROLLBACK TO tamper;

UPDATE act.log_removals SET positions = positions + int8multirange(int8range(
  (SELECT position FROM c_entries WHERE version = 0), (SELECT position FROM c_entries WHERE version = 0) + 1))
 WHERE record_id = (SELECT id FROM act.events WHERE stream = '__truncations__' AND version = 0);
SELECT ok((SELECT bool_or(problem LIKE 'removal record % lists the entry of event % as removed, but the event is present')
             FROM act.verify_log()), 'a record listing an entry whose event is present');
ROLLBACK TO tamper;

-- Shrink the tree below a stored checkpoint: delete the last events, clear the log, reseal.
SELECT max(size) AS checkpointed FROM act.checkpoints \gset
DELETE FROM act.events WHERE id > (SELECT min(id) FROM c_entries);
DELETE FROM act.log_removals;
DELETE FROM act.log_tiles;
DELETE FROM act.log_entries;
DELETE FROM act.log_state;
SELECT act.seal() IS NOT NULL;
SELECT ok((SELECT bool_or(position = :checkpointed AND problem LIKE 'the tree has % entries, fewer than the checkpoint at size % stated: entries were removed from the log''s tree')
             FROM act.verify_log()), 'a tree rebuilt smaller than a stored checkpoint');
ROLLBACK TO tamper;

UPDATE act.checkpoints SET note = replace(note, encode(root, 'base64'), encode(sha256('x'), 'base64')) WHERE size = :checkpointed;
SELECT results_eq('SELECT position, problem FROM act.verify_log()',
  format($$VALUES (%s::bigint, 'the checkpoint at size %s has a note that states another root than its row')$$, :checkpointed, :checkpointed),
  'a rewritten checkpoint note, same size, another root');
ROLLBACK TO tamper;
UPDATE act.checkpoints SET note = replace(note, encode(root, 'base64'), encode(sha256('x'), 'base64')), root = sha256('x')
 WHERE size = :checkpointed;
SELECT is((SELECT array_agg(problem) FROM act.verify_log()),
  ARRAY[format('the checkpoint at size %s states another root than the tree''s', :checkpointed),
        format('the checkpoint at size %s has a note that states another root than the tree''s', :checkpointed)],
  'a rewritten checkpoint, row and note alike');
ROLLBACK TO tamper;
UPDATE act.checkpoints SET note = replace(note, E'\n' || size || E'\n', E'\n' || (size + 1) || E'\n') WHERE size = :checkpointed;
SELECT results_eq('SELECT problem FROM act.verify_log()',
  format($$VALUES ('the checkpoint at size %s has a note that states size %s')$$, :checkpointed, :checkpointed + 1),
  'a note that states another size than its row');
ROLLBACK TO tamper;

INSERT INTO act.log_keys (vkey, name, key_id, public_key) VALUES ('not a key', 'n', '\x00000000', sha256('k'));
SELECT results_eq($$SELECT position, problem FROM act.verify_log()$$,
  $$VALUES (NULL::bigint, 'act.log_keys holds a key that does not parse: verifier key "not a key": it is not <name>+<key ID>+<key>')$$,
  'a key written into act.log_keys by hand is reported, and the walk goes on');
ROLLBACK TO tamper;

-- A corrupted hash above what is sealed stops sealing there, and says so.
SELECT count(*) FROM act.commit('g', '[{"name": "E"}, {"name": "E"}]');
SELECT count(*) FROM act.commit('h', '[{"name": "E"}]');
SELECT min(id) AS g_first FROM act.events WHERE stream = 'g' \gset
UPDATE act.events SET hash = '\x00' WHERE stream = 'g' AND version = 1;
SELECT is((SELECT sealed_upto_id FROM act.seal()), :g_first::bigint, 'sealing stops just before the corrupted event');
SELECT is((SELECT seal_stopped FROM act.status()),
  format('event %s has a hash of 1 bytes, not 32: sealing stops before it', :g_first + 1), 'act.status() says why');
SELECT is((SELECT value FROM act.metrics() WHERE metric = 'pg_act_log_seal_stopped'), 1::double precision,
  'act.metrics() exports it');
SELECT results_eq('SELECT id, problem FROM act.verify_log()',
  format($$VALUES (%s::bigint, 'event %s (not sealed yet) has a hash of 1 bytes, not 32: sealing stops before it')$$,
         :g_first + 1, :g_first + 1),
  'act.verify_log reports it as a row');
SELECT throws_ok($$SELECT act.truncate('[{"stream": "h"}]')$$, 'XX001',
  format('event %s has a hash of 1 bytes, not 32: sealing stops before it', :g_first + 1),
  'a truncate that must seal past it is refused, naming it');
SELECT is((SELECT count(*) FROM act.truncate('[{"stream": "f"}]')), 1::bigint, 'one below it still truncates');
ROLLBACK TO tamper;
SELECT is((SELECT seal_stopped FROM act.status()), NULL, 'act.status() shows nothing when sealing runs');
SELECT is((SELECT value FROM act.metrics() WHERE metric = 'pg_act_log_seal_stopped'), 0::double precision,
  'and act.metrics() 0');

SELECT * FROM finish();
ROLLBACK;
