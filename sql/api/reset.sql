-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.reset(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_reset';
COMMENT ON FUNCTION act.reset(jsonb) IS 'Rewinds the selected streams to replay from the start (work marks kept)';
REVOKE ALL ON FUNCTION act.reset(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.reset(jsonb) TO act_admin;
