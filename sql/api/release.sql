-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.release(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_release';
-- grant act_admin: Drops the leases of the selected streams so any worker may claim them at once; watermarks, retries and blocks stay
