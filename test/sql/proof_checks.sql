-- act.verify_inclusion and act.verify_consistency: every proof the log hands
-- out for a small tree holds, at every size; every mutation of it (the
-- classes of transparency-dev's proof probes: garbage before or after the
-- path, a hash dropped, doubled or flipped, another or swapped roots, another
-- index or size, an empty path where one is needed) is false; a statement
-- about no tree is an error with its SQLSTATE. A mutation that states
-- something true (the prover's own answer for the mutated sizes) is left out.
BEGIN;
SELECT * FROM no_plan();
\ir lib/refused.sql

-- 13 entries: odd sizes, a right edge at every level.
SELECT count(*) FROM generate_series(1, 13) s, act.commit('proof-' || s, '[{"name": "A", "data": {"n": 1}}]');
SELECT is((SELECT size FROM act.seal()), 13::bigint, 'a log of 13 entries');

CREATE FUNCTION pg_temp.garbage(seed bigint) RETURNS bytea LANGUAGE sql AS $$
  SELECT sha256(convert_to('garbage ' || seed, 'UTF8'))
$$;
CREATE FUNCTION pg_temp.flip(hash bytea, n int) RETURNS bytea LANGUAGE sql AS $$
  SELECT set_bit(hash, n, 1 - get_bit(hash, n))
$$;

-- Every inclusion proof the log gives: each entry in each tree 1..13.
CREATE TEMP TABLE inclusions AS
  SELECT p.* FROM generate_series(1, 13) n, act.log_entries(0, n) e, act.prove_inclusion(e.id, n) p;
-- Every consistency proof: each pair 0 <= m <= n <= 13, with both roots.
CREATE TEMP TABLE consistencies AS
  SELECT m, act.merkle_root(m) AS old_root, n, act.merkle_root(n) AS new_root, act.prove_consistency(m, n) AS path
    FROM generate_series(0, 13) n, generate_series(0, n) m;

-- Whether a statement is true of this log, by the prover's own answers.
CREATE FUNCTION pg_temp.inclusion_true(leaf bytea, idx bigint, size bigint, path bytea[], root bytea) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF size < 1 OR size > 13 OR idx < 0 OR idx >= size THEN RETURN false; END IF;
  RETURN EXISTS (SELECT FROM inclusions i
                  WHERE i.leaf_index = idx AND i.tree_size = size AND i.leaf_hash = leaf AND i.path = $4 AND i.root = $5);
END $$;
CREATE FUNCTION pg_temp.consistency_true(m bigint, old_root bytea, n bigint, new_root bytea, path bytea[]) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF m < 0 OR m > n OR m > 13 OR old_root <> act.merkle_root(m) THEN RETURN false; END IF;
  IF m = 0 THEN RETURN cardinality(path) = 0; END IF;  -- every tree extends the empty one
  RETURN n <= 13 AND EXISTS (SELECT FROM consistencies c WHERE c.m = $1 AND c.n = $3 AND c.new_root = $4 AND c.path = $5);
END $$;

-- The paths one or two hashes longer or shorter than a proof.
CREATE FUNCTION pg_temp.reshaped(path bytea[], junk bytea, root bytea) RETURNS TABLE(what text, changed bytea[])
LANGUAGE sql AS $$
  SELECT * FROM (VALUES ('garbage before the path', junk || path), ('garbage after the path', path || junk),
                        ('the root before the path', root || path), ('the root after the path', path || root),
                        ('two hashes after the path', path || ARRAY[junk, junk])) v
  UNION ALL
  SELECT * FROM (VALUES ('the last hash dropped', path[1:cardinality(path) - 1]),
                        ('the first hash dropped', path[2:]), ('an empty path', '{}'::bytea[]),
                        ('the first hash twice', path[1] || path), ('garbage after the first hash', path[1:1] || junk || path[2:])) v
   WHERE cardinality(path) > 0
$$;

CREATE FUNCTION pg_temp.inclusion_mutations(leaf bytea, idx bigint, size bigint, path bytea[], root bytea)
RETURNS TABLE(what text, m_leaf bytea, m_idx bigint, m_size bigint, m_path bytea[], m_root bytea) LANGUAGE sql AS $$
  SELECT r.what, leaf, idx, size, r.changed, root FROM pg_temp.reshaped(path, pg_temp.garbage(idx * 131 + size), root) r
  UNION ALL
  SELECT 'hash ' || k || ' bit ' || b || ' flipped', leaf, idx, size,
         path[1:k - 1] || pg_temp.flip(path[k], b) || path[k + 1:], root
    FROM generate_series(1, cardinality(path)) k, unnest('{0,3,255}'::int[]) b
  UNION ALL
  SELECT * FROM (VALUES ('another root', leaf, idx, size, path, pg_temp.flip(root, 7)),
                        ('the empty root', leaf, idx, size, path, sha256('')),
                        ('another leaf', pg_temp.garbage(7), idx, size, path, root),
                        ('leaf and root swapped', root, idx, size, path, leaf),
                        ('index - 1', leaf, idx - 1, size, path, root), ('index + 1', leaf, idx + 1, size, path, root),
                        ('index ^ 2', leaf, idx # 2, size, path, root),
                        ('size * 2', leaf, idx, size * 2, path, root), ('size / 2', leaf, idx, size / 2, path, root)) v
  UNION ALL
  SELECT 'the proof of index ' || i.leaf_index, leaf, idx, size, i.path, root
    FROM inclusions i WHERE i.tree_size = size AND i.leaf_index IN (idx - 1, idx + 1)
  UNION ALL
  SELECT 'size ' || s || ' and its root', leaf, idx, s, path, act.merkle_root(s)
    FROM unnest(ARRAY[size - 1, size + 1, size * 2, size / 2]) s WHERE s BETWEEN 1 AND 13
$$;

CREATE FUNCTION pg_temp.consistency_mutations(m bigint, old_root bytea, n bigint, new_root bytea, path bytea[])
RETURNS TABLE(what text, m_m bigint, m_old bytea, m_n bigint, m_new bytea, m_path bytea[]) LANGUAGE sql AS $$
  SELECT r.what, m, old_root, n, new_root, r.changed FROM pg_temp.reshaped(path, pg_temp.garbage(m * 131 + n), new_root) r
  UNION ALL
  SELECT 'the old root before the path', m, old_root, n, new_root, old_root || path
  UNION ALL
  SELECT 'hash ' || k || ' bit ' || b || ' flipped', m, old_root, n, new_root,
         path[1:k - 1] || pg_temp.flip(path[k], b) || path[k + 1:]
    FROM generate_series(1, cardinality(path)) k, unnest('{0,4,255}'::int[]) b
  UNION ALL
  SELECT * FROM (VALUES ('another old root', m, pg_temp.flip(old_root, 9), n, new_root, path),
                        ('another new root', m, old_root, n, pg_temp.flip(new_root, 9), path),
                        ('roots swapped', m, new_root, n, old_root, path),
                        ('new size * 2', m, old_root, n * 2, new_root, path),
                        ('new size / 2', m, old_root, n / 2, new_root, path)) v
  UNION ALL
  SELECT 'old size ' || s || ' and its root', s, act.merkle_root(s), n, new_root, path
    FROM unnest(ARRAY[m - 1, m + 1, m # 2]) s WHERE s BETWEEN 0 AND 13
  UNION ALL
  SELECT 'new size ' || s || ' and its root', m, old_root, s, act.merkle_root(s), path
    FROM unnest(ARRAY[n - 1, n + 1, n * 2, n / 2]) s WHERE s BETWEEN 0 AND 13
$$;

-- ---- Valid proofs hold ---------------------------------------------------------
SELECT is((SELECT count(*) FROM inclusions), 91::bigint, '91 inclusion proofs: each entry in each tree 1..13');
SELECT ok((SELECT bool_and(act.verify_inclusion(leaf_hash, leaf_index, tree_size, path, root)) FROM inclusions),
  'every inclusion proof of act.prove_inclusion holds');
SELECT is((SELECT count(*) FROM consistencies), 105::bigint, '105 consistency proofs: each pair 0 <= m <= n <= 13');
SELECT ok((SELECT bool_and(act.verify_consistency(m, old_root, n, new_root, path)) FROM consistencies),
  'every consistency proof of act.prove_consistency holds');

-- ---- Every mutation is false -------------------------------------------------
CREATE TEMP TABLE inclusion_probes AS
  SELECT i.leaf_index || ' in ' || i.tree_size || ', ' || x.what AS probe, x.*
    FROM inclusions i, pg_temp.inclusion_mutations(i.leaf_hash, i.leaf_index, i.tree_size, i.path, i.root) x
   WHERE x.m_idx >= 0 AND x.m_idx < x.m_size
     AND NOT pg_temp.inclusion_true(x.m_leaf, x.m_idx, x.m_size, x.m_path, x.m_root);
SELECT cmp_ok((SELECT count(*) FROM inclusion_probes), '>', 1500::bigint, 'over 1500 mutated inclusion proofs');
SELECT is((SELECT count(DISTINCT regexp_replace(what, '[0-9]+', '', 'g')) FROM inclusion_probes),
  22::bigint, 'of 22 kinds');
SELECT is((SELECT array_agg(probe ORDER BY probe) FROM inclusion_probes
            WHERE act.verify_inclusion(m_leaf, m_idx, m_size, m_path, m_root)), NULL,
  'no mutated inclusion proof holds');

CREATE TEMP TABLE consistency_probes AS
  SELECT c.m || ' -> ' || c.n || ', ' || x.what AS probe, x.*
    FROM consistencies c, pg_temp.consistency_mutations(c.m, c.old_root, c.n, c.new_root, c.path) x
   WHERE x.m_m <= x.m_n AND NOT pg_temp.consistency_true(x.m_m, x.m_old, x.m_n, x.m_new, x.m_path);
SELECT cmp_ok((SELECT count(*) FROM consistency_probes), '>', 2000::bigint, 'over 2000 mutated consistency proofs');
SELECT is((SELECT count(DISTINCT regexp_replace(what, '[0-9]+', '', 'g')) FROM consistency_probes),
  19::bigint, 'of 19 kinds');
SELECT is((SELECT array_agg(probe ORDER BY probe) FROM consistency_probes
            WHERE act.verify_consistency(m_m, m_old, m_n, m_new, m_path)), NULL,
  'no mutated consistency proof holds');

-- The case issue 38 named: a one-entry tree's empty path with a hash before or after it.
SELECT is(act.verify_inclusion(leaf_hash, 0, 1, path, root), true, 'the one-entry tree: the empty path holds')
  FROM inclusions WHERE tree_size = 1;
SELECT is(act.verify_inclusion(leaf_hash, 0, 1, ARRAY[pg_temp.garbage(1)], root), false,
  'the one-entry tree: a garbage hash as path is false') FROM inclusions WHERE tree_size = 1;
SELECT is(act.verify_inclusion(leaf_hash, 0, 1, ARRAY[root, pg_temp.garbage(1)], root), false,
  'the one-entry tree: two hashes as path are false') FROM inclusions WHERE tree_size = 1;
SELECT is(act.verify_consistency(1, root, 1, root, ARRAY[root]), false,
  'the same one-entry tree with a hash as path is false') FROM inclusions WHERE tree_size = 1;
SELECT is(act.verify_consistency(0, sha256(''), 5, act.merkle_root(5), ARRAY[act.merkle_root(5)]), false,
  'from the empty tree with a hash as path is false');
SELECT is(act.verify_consistency(0, sha256(''), 5, pg_temp.garbage(1), '{}'), true,
  'from the empty tree with an empty path holds, whatever the new root');
SELECT is(act.verify_inclusion(pg_temp.garbage(1), 5, 1000000, array_fill(pg_temp.garbage(2), ARRAY[20]), pg_temp.garbage(3)),
  false, 'a size beyond this log''s tree is no error: no table is read');

-- ---- A statement about no tree is an error ----------------------------------------
CREATE TEMP TABLE good AS SELECT * FROM inclusions WHERE leaf_index = 5 AND tree_size = 13;
SELECT pg_temp.refused($$SELECT act.verify_inclusion(NULL, 5, 13, (SELECT path FROM good), (SELECT root FROM good))$$,
  '22004', 'leaf_hash must not be null', 'inclusion: a NULL leaf_hash');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), NULL, 13, (SELECT path FROM good), (SELECT root FROM good))$$,
  '22004', 'leaf_index must not be null', 'inclusion: a NULL leaf_index');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 5, NULL, (SELECT path FROM good), (SELECT root FROM good))$$,
  '22004', 'tree_size must not be null', 'inclusion: a NULL tree_size');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 5, 13, NULL, (SELECT root FROM good))$$,
  '22004', 'path must not be null', 'inclusion: a NULL path');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 5, 13, (SELECT path FROM good), NULL)$$,
  '22004', 'root must not be null', 'inclusion: a NULL root');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 5, 13, (SELECT path[1:1] || NULL::bytea || path[2:] FROM good), (SELECT root FROM good))$$,
  '22004', 'path[2] must not be null', 'inclusion: a NULL hash in the path');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT substr(leaf_hash, 2) FROM good), 5, 13, (SELECT path FROM good), (SELECT root FROM good))$$,
  '22023', 'leaf_hash must be 32 bytes%, not 31', 'inclusion: a 31-byte leaf_hash');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 5, 13, (SELECT path FROM good), (SELECT root || '\x00'::bytea FROM good))$$,
  '22023', 'root must be 32 bytes%, not 33', 'inclusion: a 33-byte root');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 5, 13, (SELECT path[1:2] || ''::bytea || path[3:] FROM good), (SELECT root FROM good))$$,
  '22023', 'path[3] must be 32 bytes%, not 0', 'inclusion: an empty hash in the path');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 5, -13, (SELECT path FROM good), (SELECT root FROM good))$$,
  '22023', 'tree_size must not be negative%', 'inclusion: a negative tree_size');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), -1, 13, (SELECT path FROM good), (SELECT root FROM good))$$,
  '22023', 'leaf_index -1 is not in a tree of 13 entries', 'inclusion: a negative leaf_index');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 13, 13, (SELECT path FROM good), (SELECT root FROM good))$$,
  '22023', 'leaf_index 13 is not in a tree of 13 entries', 'inclusion: leaf_index = tree_size');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 0, 0, '{}', sha256(''))$$,
  '22023', 'leaf_index 0 is not in a tree of 0 entries', 'inclusion: the empty tree');
SELECT pg_temp.refused($$SELECT act.verify_inclusion((SELECT leaf_hash FROM good), 5, 13, (SELECT ARRAY[path[1:2], path[3:4]] FROM good), (SELECT root FROM good))$$,
  '22023', 'path must be a one-dimensional array%', 'inclusion: a two-dimensional path');

CREATE TEMP TABLE good_c AS SELECT * FROM consistencies WHERE m = 6 AND n = 13;
SELECT pg_temp.refused($$SELECT act.verify_consistency(NULL, (SELECT old_root FROM good_c), 13, (SELECT new_root FROM good_c), (SELECT path FROM good_c))$$,
  '22004', 'old_size must not be null', 'consistency: a NULL old_size');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, NULL, 13, (SELECT new_root FROM good_c), (SELECT path FROM good_c))$$,
  '22004', 'old_root must not be null', 'consistency: a NULL old_root');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, (SELECT old_root FROM good_c), NULL, (SELECT new_root FROM good_c), (SELECT path FROM good_c))$$,
  '22004', 'new_size must not be null', 'consistency: a NULL new_size');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, (SELECT old_root FROM good_c), 13, NULL, (SELECT path FROM good_c))$$,
  '22004', 'new_root must not be null', 'consistency: a NULL new_root');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, (SELECT old_root FROM good_c), 13, (SELECT new_root FROM good_c), NULL)$$,
  '22004', 'path must not be null', 'consistency: a NULL path');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, (SELECT old_root FROM good_c), 13, (SELECT new_root FROM good_c), (SELECT NULL::bytea || path FROM good_c))$$,
  '22004', 'path[1] must not be null', 'consistency: a NULL hash in the path');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, (SELECT substr(old_root, 1, 31) FROM good_c), 13, (SELECT new_root FROM good_c), (SELECT path FROM good_c))$$,
  '22023', 'old_root must be 32 bytes%, not 31', 'consistency: a 31-byte old_root');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, (SELECT old_root FROM good_c), 13, '', (SELECT path FROM good_c))$$,
  '22023', 'new_root must be 32 bytes%, not 0', 'consistency: an empty new_root');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, (SELECT old_root FROM good_c), 13, (SELECT new_root FROM good_c), (SELECT path || (path[1] || '\x00'::bytea) FROM good_c))$$,
  '22023', 'path[_] must be 32 bytes%, not 33', 'consistency: a 33-byte hash in the path');
SELECT pg_temp.refused($$SELECT act.verify_consistency(-6, (SELECT old_root FROM good_c), 13, (SELECT new_root FROM good_c), (SELECT path FROM good_c))$$,
  '22023', 'old_size must not be negative%', 'consistency: a negative old_size');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, (SELECT old_root FROM good_c), -13, (SELECT new_root FROM good_c), (SELECT path FROM good_c))$$,
  '22023', 'new_size must not be negative%', 'consistency: a negative new_size');
SELECT pg_temp.refused($$SELECT act.verify_consistency(13, (SELECT new_root FROM good_c), 6, (SELECT old_root FROM good_c), (SELECT path FROM good_c))$$,
  '22023', 'old_size 13 is larger than new_size 6', 'consistency: the sizes swapped');
SELECT pg_temp.refused($$SELECT act.verify_consistency(6, (SELECT old_root FROM good_c), 13, (SELECT new_root FROM good_c), (SELECT ARRAY[path, path] FROM good_c))$$,
  '22023', 'path must be a one-dimensional array%', 'consistency: a two-dimensional path');

-- Checks of arguments alone: IMMUTABLE, and nothing above wrote anything.
SELECT is((SELECT string_agg(DISTINCT provolatile::text, '') FROM pg_proc
            WHERE oid IN ('act.verify_inclusion'::regproc, 'act.verify_consistency'::regproc)), 'i', 'both are IMMUTABLE');
SELECT is((SELECT size FROM act.log_size()), 13::bigint, 'the log is as it was');

SELECT * FROM finish();
ROLLBACK;
