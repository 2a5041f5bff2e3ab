-- C++: extension/merkle/log_sql.cpp
CREATE OR REPLACE FUNCTION act.merkle_root(tree_size bigint) RETURNS bytea
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_merkle_root';
COMMENT ON FUNCTION act.merkle_root(bigint) IS 'The RFC 9162 root of the log''s first tree_size entries';
REVOKE ALL ON FUNCTION act.merkle_root(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.merkle_root(bigint) TO act_reader;
