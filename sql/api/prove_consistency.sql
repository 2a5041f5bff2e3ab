-- C++: extension/merkle/log_sql.cpp
CREATE OR REPLACE FUNCTION act.prove_consistency(old_size bigint, new_size bigint) RETURNS bytea[]
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_prove_consistency';
-- grant act_reader: RFC 9162 consistency proof from the tree of old_size entries to the tree of new_size entries
