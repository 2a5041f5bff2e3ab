-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.defer(selector jsonb, until timestamptz) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_defer';
COMMENT ON FUNCTION act.defer(jsonb, timestamptz) IS 'Makes the selected streams unclaimable until a time';
REVOKE ALL ON FUNCTION act.defer(jsonb, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.defer(jsonb, timestamptz) TO act_admin;
