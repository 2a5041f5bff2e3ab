-- C++: extension/log/horizon_sql.cpp
CREATE OR REPLACE FUNCTION act.wait(after bigint, timeout_ms int) RETURNS bigint
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_wait';
-- grant act_reader: Waits until act.horizon() passes after, or the timeout; returns the horizon (woken through shared memory in concurrent mode)
