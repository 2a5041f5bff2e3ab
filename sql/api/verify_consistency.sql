-- C++: extension/merkle/proof_checks.cpp
-- Reads no table and is not STRICT, as act.verify_inclusion (verify_inclusion.sql).
CREATE OR REPLACE FUNCTION act.verify_consistency(old_size bigint, old_root bytea, new_size bigint, new_root bytea, path bytea[])
RETURNS boolean
LANGUAGE c IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_verify_consistency';
-- grant act_reader: Whether path is the RFC 9162 consistency proof that the tree of old_size entries with old_root is a prefix of the tree of new_size entries with new_root
