-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.unblock(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_unblock';
COMMENT ON FUNCTION act.unblock(jsonb) IS 'Unblocks the selected blocked streams; they resume at their watermark';
REVOKE ALL ON FUNCTION act.unblock(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.unblock(jsonb) TO act_admin;
