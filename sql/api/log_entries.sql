-- C++: extension/merkle/log_sql.cpp
CREATE OR REPLACE FUNCTION act.log_entries(from_position bigint, to_position bigint)
RETURNS TABLE("position" bigint, id bigint, hash bytea)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_log_entries';
-- grant act_reader: The log's entries at positions [from_position, to_position): event id and entry data (the event hash)
