-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.reset(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_reset';
-- grant act_admin: Rewinds the selected streams to replay from the start (work marks kept)
