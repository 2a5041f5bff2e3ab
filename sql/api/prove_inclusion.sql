-- C++: extension/merkle/log_sql.cpp
CREATE OR REPLACE FUNCTION act.prove_inclusion(id bigint, tree_size bigint DEFAULT NULL)
RETURNS TABLE(leaf_index bigint, tree_size bigint, leaf_hash bytea, path bytea[], root bytea)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_prove_inclusion';
-- grant act_reader: RFC 9162 inclusion proof of the event's entry in the tree of tree_size entries (NULL: the current tree)
