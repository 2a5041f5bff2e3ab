-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.prioritize(selector jsonb, priority int) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_prioritize';
-- grant act_admin: Sets the priority of the selected streams
