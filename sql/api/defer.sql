-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.defer(selector jsonb, until timestamptz) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_defer';
-- grant act_admin: Makes the selected streams unclaimable until a time
