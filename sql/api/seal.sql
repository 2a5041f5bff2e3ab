-- C++: extension/merkle/log_sql.cpp
CREATE OR REPLACE FUNCTION act.seal() RETURNS TABLE(size bigint, root bytea, sealed_upto_id bigint)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_seal';
-- grant act_admin: Appends every event at or below the horizon that the log's Merkle tree lacks; returns the tree
