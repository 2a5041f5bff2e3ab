-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.unblock(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_unblock';
-- grant act_admin: Unblocks the selected blocked streams; they resume at their watermark
