-- C++: extension/merkle/log_sql.cpp
CREATE OR REPLACE FUNCTION act.log_size() RETURNS TABLE(size bigint, root bytea, sealed_upto_id bigint)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_log_size';
-- grant act_reader: The log's Merkle tree now: entries, root, sealed through which id
