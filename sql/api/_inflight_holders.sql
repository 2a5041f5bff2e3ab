-- C++: extension/log/horizon_sql.cpp
CREATE OR REPLACE FUNCTION act._inflight_holders() RETURNS TABLE(pid int, since timestamptz, lowest_id bigint)
LANGUAGE c VOLATILE
AS 'MODULE_PATHNAME', 'act_inflight_holders';
-- grant none
