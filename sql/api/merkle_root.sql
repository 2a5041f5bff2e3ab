-- C++: extension/merkle/log_sql.cpp
CREATE OR REPLACE FUNCTION act.merkle_root(tree_size bigint) RETURNS bytea
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_merkle_root';
-- grant act_reader: The RFC 9162 root of the log's first tree_size entries
