-- RFC 9162 in plain SQL, written from the RFC (§2.1.1, §2.1.3.2, §2.1.4.2)
-- independently of the extension's C++: suites check its roots and proofs
-- against these (included with \ir).

-- MTH over leaf hashes leaves[lo:hi] (1-based, inclusive).
CREATE FUNCTION pg_temp.mth(leaves bytea[], lo int, hi int) RETURNS bytea LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  n int := hi - lo + 1;
  k int := 1;
BEGIN
  IF n <= 0 THEN RETURN sha256(''); END IF;
  IF n = 1 THEN RETURN leaves[lo]; END IF;
  WHILE k * 2 < n LOOP k := k * 2; END LOOP;
  RETURN sha256('\x01'::bytea || pg_temp.mth(leaves, lo, lo + k - 1) || pg_temp.mth(leaves, lo + k, hi));
END $$;

-- The leaf hashes of the first n entries of the log, from the event hashes.
CREATE FUNCTION pg_temp.leaves(n bigint) RETURNS bytea[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(sha256('\x00'::bytea || e.hash) ORDER BY e.position), '{}')
    FROM act.log_entries(0, n) e
$$;

CREATE FUNCTION pg_temp.root_of(n bigint) RETURNS bytea LANGUAGE sql STABLE AS $$
  SELECT pg_temp.mth(pg_temp.leaves(n), 1, n::int)
$$;

-- RFC 9162 §2.1.3.2.
CREATE FUNCTION pg_temp.inclusion_holds(leaf bytea, leaf_index bigint, tree_size bigint, path bytea[], root bytea)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  fn bigint := leaf_index;
  sn bigint := tree_size - 1;
  r bytea := leaf;
  p bytea;
BEGIN
  IF leaf_index >= tree_size THEN RETURN false; END IF;
  FOREACH p IN ARRAY coalesce(path, '{}') LOOP
    IF sn = 0 THEN RETURN false; END IF;
    IF fn % 2 = 1 OR fn = sn THEN
      r := sha256('\x01'::bytea || p || r);
      IF fn % 2 = 0 THEN
        WHILE fn % 2 = 0 AND fn <> 0 LOOP fn := fn / 2; sn := sn / 2; END LOOP;
      END IF;
    ELSE
      r := sha256('\x01'::bytea || r || p);
    END IF;
    fn := fn / 2;
    sn := sn / 2;
  END LOOP;
  RETURN sn = 0 AND r = root;
END $$;

-- RFC 9162 §2.1.4.2.
CREATE FUNCTION pg_temp.consistency_holds(first bigint, second bigint, first_root bytea, second_root bytea,
                                          path bytea[]) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  proof bytea[] := coalesce(path, '{}');
  fn bigint;
  sn bigint;
  fr bytea;
  sr bytea;
  c bytea;
  i int;
BEGIN
  IF first > second THEN RETURN false; END IF;
  IF first = second THEN RETURN cardinality(proof) = 0 AND first_root = second_root; END IF;
  IF first = 0 THEN RETURN cardinality(proof) = 0 AND first_root = sha256(''); END IF;
  IF cardinality(proof) = 0 THEN RETURN false; END IF;
  -- first a power of two: the old root is the first node.
  IF first & (first - 1) = 0 THEN proof := array_prepend(first_root, proof); END IF;
  fn := first - 1;
  sn := second - 1;
  WHILE fn & 1 = 1 LOOP fn := fn >> 1; sn := sn >> 1; END LOOP;
  fr := proof[1];
  sr := proof[1];
  FOR i IN 2 .. cardinality(proof) LOOP
    c := proof[i];
    IF sn = 0 THEN RETURN false; END IF;
    IF fn & 1 = 1 OR fn = sn THEN
      fr := sha256('\x01'::bytea || c || fr);
      sr := sha256('\x01'::bytea || c || sr);
      IF fn & 1 = 0 THEN
        WHILE fn & 1 = 0 AND fn <> 0 LOOP fn := fn >> 1; sn := sn >> 1; END LOOP;
      END IF;
    ELSE
      sr := sha256('\x01'::bytea || sr || c);
    END IF;
    fn := fn >> 1;
    sn := sn >> 1;
  END LOOP;
  RETURN fr = first_root AND sr = second_root AND sn = 0;
END $$;
