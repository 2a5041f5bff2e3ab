-- The verifiable log: act.seal, act.log_size, act.merkle_root, act.log_position,
-- act.prove_inclusion, act.prove_consistency, act.log_entries, act.prove_stream,
-- act.verify_log; roots and proofs checked against RFC 9162 written in SQL.
BEGIN;
SELECT * FROM no_plan();
\ir lib/refused.sql
\ir lib/merkle.sql

-- The empty tree.
SELECT is((SELECT row(size, root, sealed_upto_id)::text FROM act.log_size()),
  row(0::bigint, sha256(''), 0::bigint)::text, 'an empty log: size 0, the root of nothing');
SELECT is(act.merkle_root(0), sha256(''), 'merkle_root(0) is SHA-256 of nothing');
SELECT is(act.prove_consistency(0, 0), '{}'::bytea[], 'consistency 0 -> 0: an empty path');
SELECT is((SELECT size FROM act.seal()), 0::bigint, 'sealing an empty log leaves it empty');

-- Entries are events in id order, burned ids skipped.
SELECT count(*) FROM act.commit('m-1', '[{"name": "A"}, {"name": "B"}]');
SAVEPOINT burn;
SELECT count(*) FROM act.commit('m-2', '[{"name": "X"}]');
ROLLBACK TO burn;
SELECT count(*) FROM act.commit('m-2', '[{"name": "C"}, {"name": "__snapshot__", "data": {"n": 1}}]');
SELECT count(*) FROM act.commit('m-1', '[{"name": "D"}]');
SELECT is(act.log_position((SELECT max(id) FROM act.events)), NULL, 'an event not sealed yet has no position');
SELECT is((SELECT row(size, sealed_upto_id)::text FROM act.seal()),
  row(5::bigint, (SELECT max(id) FROM act.events))::text, 'seal appends the five events, through the last id');
SELECT is((SELECT row(size, root)::text FROM act.seal()), (SELECT row(size, root)::text FROM act.log_size()),
  'seal is idempotent and log_size agrees with it');
SELECT is((SELECT array_agg(act.log_position(id) ORDER BY id) FROM act.events), '{0,1,2,3,4}'::bigint[],
  'positions are dense and in id order');
SELECT is(act.log_position(3), NULL, 'the burned id has no position');
SELECT is(act.log_position(999999), NULL, 'an id that never existed has no position');
SELECT is((SELECT array_agg(row(l.id, l.hash)::text ORDER BY l.position) FROM act.log_entries(0, 5) l),
  (SELECT array_agg(row(e.id, e.hash)::text ORDER BY e.id) FROM act.events e),
  'the entries are the events'' ids and stored hashes');
SELECT is((SELECT count(*) FROM act.log_entries(2, 4)), 2::bigint, 'log_entries takes [from, to)');

-- Roots at every size, against the RFC written in SQL.
SELECT is((SELECT root FROM act.log_size()), pg_temp.root_of(5), 'the root is RFC 9162''s MTH of the entries');
SELECT ok((SELECT bool_and(act.merkle_root(n) = pg_temp.root_of(n)) FROM generate_series(0, 5) n),
  'merkle_root agrees with MTH at every size 0..5');

-- More entries: several tiles' worth of proofs and roots (600 events).
SELECT count(*) FROM generate_series(1, 60) s, act.commit('m-bulk-' || s, '[{"name": "A"}, {"name": "B"}, {"name": "C"},
  {"name": "D"}, {"name": "E"}, {"name": "F"}, {"name": "G"}, {"name": "H"}, {"name": "I"}, {"name": "J"}]');
SELECT is((SELECT size FROM act.seal()), 605::bigint, 'a second seal appends the next 600');
SELECT is((SELECT root FROM act.log_size()), pg_temp.root_of(605), 'the root of 605 entries is MTH');
SELECT ok((SELECT bool_and(act.merkle_root(n) = pg_temp.root_of(n)) FROM unnest('{1,255,256,257,511,512,513,600}'::bigint[]) n),
  'merkle_root agrees with MTH across tile edges');
SELECT is((SELECT count(*) FROM act.log_tiles WHERE level = 0), 3::bigint, 'three level-0 tiles: two full, one partial');
SELECT is((SELECT length(hashes) FROM act.log_tiles WHERE level = 0 AND idx = 2), 32 * 93, 'the partial tile holds 93 hashes');

-- Inclusion proofs of every entry, in the current tree and in older ones.
SELECT ok((SELECT bool_and(pg_temp.inclusion_holds(p.leaf_hash, p.leaf_index, p.tree_size, p.path, p.root))
             FROM act.events e, act.prove_inclusion(e.id) p),
  'the inclusion proof of every event holds in the current tree');
SELECT ok((SELECT bool_and(p.leaf_hash = sha256('\x00'::bytea || e.hash) AND p.leaf_index = act.log_position(e.id)
                           AND p.tree_size = 605 AND p.root = act.merkle_root(605))
             FROM act.events e, act.prove_inclusion(e.id) p),
  'leaf_hash is SHA-256(0x00 || hash), leaf_index the position, tree_size and root the tree''s');
SELECT ok((SELECT bool_and(pg_temp.inclusion_holds(p.leaf_hash, p.leaf_index, p.tree_size, p.path, act.merkle_root(n)))
             FROM unnest('{1,2,3,7,256,257,300,512}'::bigint[]) n, act.events e, act.prove_inclusion(e.id, n) p
            WHERE act.log_position(e.id) < n),
  'inclusion proofs in older trees hold against their roots');
SELECT is((SELECT cardinality(path) FROM act.prove_inclusion((SELECT min(id) FROM act.events), 512)), 9,
  'a proof in a tree of 512 entries has 9 hashes');
SELECT ok(NOT pg_temp.inclusion_holds(p.leaf_hash, p.leaf_index + 1, p.tree_size, p.path, p.root),
  'the verifier in SQL rejects a proof for another index') FROM act.prove_inclusion((SELECT min(id) FROM act.events)) p;

-- Consistency proofs between sizes.
SELECT ok((SELECT bool_and(pg_temp.consistency_holds(m, n, act.merkle_root(m), act.merkle_root(n), act.prove_consistency(m, n)))
             FROM unnest('{1,2,3,4,5,7,8,255,256,257,300}'::bigint[]) m, unnest('{5,8,256,257,511,512,605}'::bigint[]) n
            WHERE m <= n),
  'consistency proofs hold between sizes across tile edges');
SELECT is(act.prove_consistency(0, 605), '{}'::bytea[], 'from size 0: an empty path');
SELECT is(act.prove_consistency(605, 605), '{}'::bytea[], 'to the same size: an empty path');
SELECT ok(NOT pg_temp.consistency_holds(4, 605, act.merkle_root(5), act.merkle_root(605), act.prove_consistency(4, 605)),
  'the verifier in SQL rejects a proof against another old root');

-- A stream's latest event.
SELECT is((SELECT version FROM act.prove_stream('m-1')), 2, 'prove_stream proves the stream''s latest version');
SELECT ok((SELECT pg_temp.inclusion_holds(p.leaf_hash, p.leaf_index, p.tree_size, p.path, p.root) FROM act.prove_stream('m-1') p),
  'and the proof holds');
SELECT is((SELECT version FROM act.prove_stream('m-1', 4)), 1, 'in an older tree: the latest version it holds');

-- Bad input: 22023 and nothing written.
SELECT pg_temp.refused('SELECT act.merkle_root(-1)', '22023', 'tree_size must be 0 or more, not -1', 'negative size');
SELECT pg_temp.refused('SELECT act.merkle_root(606)', '22023', 'tree_size 606 is beyond the log, which has 605 entries%',
  'a size beyond the tree');
SELECT pg_temp.refused('SELECT act.prove_consistency(6, 5)', '22023', 'old_size 6 is above new_size 5', 'sizes out of order');
SELECT pg_temp.refused('SELECT act.prove_consistency(0, 606)', '22023', 'new_size 606 is beyond the log%', 'new_size beyond the tree');
SELECT pg_temp.refused('SELECT act.prove_inclusion(3)', '22023', 'event 3 is not in the log%', 'a burned id');
SELECT pg_temp.refused(format('SELECT act.prove_inclusion(%s, 3)', (SELECT max(id) FROM act.events)), '22023',
  'event % is entry 604, not in the tree of 3 entries', 'a tree_size at or below the entry''s index');
SELECT pg_temp.refused('SELECT act.prove_stream(''m-none'')', '22023', 'stream "m-none" has no event in the tree of 605 entries',
  'a stream without sealed events');
SELECT pg_temp.refused('SELECT act.verify_log(10, 5)', '22023', 'from_size 10 is above to_size 5', 'verify_log sizes out of order');
SELECT pg_temp.refused('SELECT act.log_entries(0, 700)', '22023', 'to_position 700 is beyond the log%', 'entries beyond the tree');
SELECT throws_ok('SELECT act.merkle_root(NULL)', '22004', 'tree_size must not be null', 'a NULL size');

-- act.verify_log: no rows for an intact log, one row per kind of tampering.
SELECT is_empty('SELECT * FROM act.verify_log()', 'an intact log verifies');
SAVEPOINT tamper;
UPDATE act.events SET data = '{"forged": true}' WHERE stream = 'm-1' AND version = 0;
SELECT is((SELECT array_agg(problem) FROM act.verify_log()), '{"the event''s content does not match its hash"}',
  'edited content is reported');
ROLLBACK TO tamper;
UPDATE act.events SET hash = sha256('x') WHERE stream = 'm-2' AND version = 0;
SELECT is((SELECT array_agg(row(position, problem)::text ORDER BY position) FROM act.verify_log(0, 5)),
  ARRAY[row(2::bigint, 'the event''s stored hash is not the entry sealed for it')::text,
        row(3::bigint, 'the event''s content does not match its hash')::text],
  'a rewritten hash is reported at its position, and its successor no longer chains to it');
ROLLBACK TO tamper;
-- From the middle: each range's first events chain to predecessors outside it.
SELECT is_empty('SELECT * FROM act.verify_log(301)', 'an intact log verifies from the middle');
SELECT is_empty('SELECT * FROM act.verify_log(257, 300)', 'and over a range across a bundle''s edge');
UPDATE act.events SET data = '{"forged": true}' WHERE stream = 'm-2' AND version = 0;
SELECT is_empty('SELECT * FROM act.verify_log(5)', 'a range after an edited event does not see it (successors chain to its stored hash)');
SELECT is((SELECT count(*) FROM act.verify_log(2, 3)), 1::bigint, 'and a range holding it reports it');
ROLLBACK TO tamper;
DELETE FROM act.events WHERE stream = 'm-2' AND version = 0;
SELECT is((SELECT array_agg(row(position, problem)::text) FROM act.verify_log(3, 5)),
  ARRAY[row(3::bigint, 'the event''s previous version is missing, so its hash cannot be recomputed')::text],
  'an event whose predecessor is gone cannot be recomputed');
ROLLBACK TO tamper;
UPDATE act.log_tiles SET hashes = sha256('x') || substr(hashes, 33) WHERE level = 0 AND idx = 1;
SELECT ok((SELECT bool_or(position = 256 AND problem LIKE 'tile tile/0/001 hash 0 is not the hash of what it covers') FROM act.verify_log()),
  'an edited tile hash is reported');
ROLLBACK TO tamper;
UPDATE act.log_entries SET ids = ids[1:255], entries = substr(entries, 1, 255 * 32) WHERE idx = 0;
SELECT is((SELECT array_agg(row(position, problem)::text) FROM act.verify_log(0, 256)),
  ARRAY[row(0::bigint, 'act.log_entries row 0 holds 255 entries, not 256')::text],
  'an entry cut from the end of a bundle is reported');
ROLLBACK TO tamper;
-- A check constraint keeps ids and entries in step; a DBA can drop it.
ALTER TABLE act.log_entries DROP CONSTRAINT log_entries_check;
UPDATE act.log_entries SET ids = ids[1:255] WHERE idx = 0;
SELECT is((SELECT array_agg(row(position, problem)::text) FROM act.verify_log(0, 256)),
  ARRAY[row(0::bigint, 'act.log_entries row 0 has 255 ids but 256 entries')::text],
  'a bundle whose ids and entries differ in number is reported, not raised');
ROLLBACK TO tamper;
ALTER TABLE act.log_entries DROP CONSTRAINT log_entries_check;
UPDATE act.log_entries SET entries = substr(entries, 1, 100) WHERE idx = 0;
SELECT ok((SELECT bool_or(position = 0 AND problem = 'act.log_entries row 0 holds 100 bytes, not a whole number of 32-byte hashes')
             FROM act.verify_log()),
  'a bundle whose entries are not whole hashes is reported, not raised');
ROLLBACK TO tamper;
-- Level 1's tile holds one hash for each full level-0 tile.
UPDATE act.log_tiles SET hashes = substr(hashes, 1, 32) || sha256('x') WHERE level = 1 AND idx = 0;
SELECT is((SELECT array_agg(row(position, problem)::text ORDER BY position) FROM act.verify_log()),
  ARRAY[row(256::bigint, 'tile tile/1/000.p/2 hash 1 is not the hash of what it covers')::text,
        row(605::bigint, 'act.log_state''s root is not the root of the stored tree')::text],
  'an edited hash above level 0 is reported at the entries it covers, and the root it leads to');
SELECT is_empty('SELECT * FROM act.verify_log(520, 600)', 'and a range past what it covers does not see it');
ROLLBACK TO tamper;
UPDATE act.log_state SET root = sha256('x');
SELECT is((SELECT array_agg(problem) FROM act.verify_log()), '{"act.log_state''s root is not the root of the stored tree"}',
  'a forged root is reported');
ROLLBACK TO tamper;

-- Truncate seals first and keeps every entry and proof.
SELECT count(*) FROM act.commit('m-1', '[{"name": "E"}]');
SELECT max(id) AS last_of_m1 FROM act.events WHERE stream = 'm-1' \gset
SELECT count(*) FROM act.truncate('[{"stream": "m-1"}]');
SELECT is(act.log_position(:last_of_m1), 605::bigint, 'truncate sealed the events it deleted first');
SELECT ok((SELECT pg_temp.inclusion_holds(p.leaf_hash, p.leaf_index, p.tree_size, p.path, p.root) FROM act.prove_inclusion(:last_of_m1) p),
  'a deleted event''s inclusion proof still holds');
SELECT is((SELECT size FROM act.seal()), 608::bigint, 'the tombstone and the removal record are sealed after them');
SELECT ok((SELECT pg_temp.consistency_holds(605, s.size, act.merkle_root(605), s.root, act.prove_consistency(605, s.size))
             FROM act.log_size() s), 'the tree after truncate is consistent with the one before');
SELECT is_empty('SELECT * FROM act.verify_log()', 'a truncated log verifies');

-- Forgetting personal data changes nothing the tree holds (pii is not hashed).
SELECT count(*) FROM act.commit('m-pii', '[{"name": "A", "pii": {"email": "a@example.com"}}]');
SELECT root AS root_with_pii FROM act.seal() \gset
SELECT is(act.forget_pii('m-pii'), 1::bigint, 'forget_pii erases the event''s pii');
SELECT is((SELECT root FROM act.seal()), :'root_with_pii'::bytea, 'and the tree''s root stays what it was');
SELECT is_empty('SELECT * FROM act.verify_log()', 'and the log still verifies');

SELECT * FROM finish();
ROLLBACK;
