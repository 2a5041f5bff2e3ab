-- RFC 9162 proof checks over their arguments alone (C++ in
-- extension/merkle/proof_checks.cpp, the checks actctl runs offline): no table
-- is read, so any database with pg_act checks proofs of any log. Not STRICT:
-- a NULL argument is an error (22004) naming it, never a NULL answer.

CREATE FUNCTION act.verify_inclusion(leaf_hash bytea, leaf_index bigint, tree_size bigint, path bytea[], root bytea)
RETURNS boolean
LANGUAGE c IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_verify_inclusion';
COMMENT ON FUNCTION act.verify_inclusion(bytea, bigint, bigint, bytea[], bytea) IS
  'Whether path is the RFC 9162 inclusion proof of the leaf hash at leaf_index in the tree of tree_size entries with this root';

CREATE FUNCTION act.verify_consistency(old_size bigint, old_root bytea, new_size bigint, new_root bytea, path bytea[])
RETURNS boolean
LANGUAGE c IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_verify_consistency';
COMMENT ON FUNCTION act.verify_consistency(bigint, bytea, bigint, bytea, bytea[]) IS
  'Whether path is the RFC 9162 consistency proof that the tree of old_size entries with old_root is a prefix of the tree of new_size entries with new_root';
