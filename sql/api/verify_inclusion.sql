-- C++: extension/merkle/proof_checks.cpp
-- RFC 9162 proof checks over their arguments alone (the checks actctl runs
-- offline): no table is read, so any database with pg_act checks proofs of
-- any log. Not STRICT: a NULL argument is an error (22004) naming it, never a
-- NULL answer.
CREATE OR REPLACE FUNCTION act.verify_inclusion(leaf_hash bytea, leaf_index bigint, tree_size bigint, path bytea[], root bytea)
RETURNS boolean
LANGUAGE c IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_verify_inclusion';
-- grant act_reader: Whether path is the RFC 9162 inclusion proof of the leaf hash at leaf_index in the tree of tree_size entries with this root
