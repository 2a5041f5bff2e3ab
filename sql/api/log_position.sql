-- C++: extension/merkle/log_sql.cpp
CREATE OR REPLACE FUNCTION act.log_position(id bigint) RETURNS bigint
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_log_position';
-- grant act_reader: The event's entry index in the log; NULL when not sealed or no such event
