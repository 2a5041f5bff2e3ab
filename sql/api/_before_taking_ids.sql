-- C++: extension/log/horizon_sql.cpp
-- For act.truncate, before its INSERT takes ids: the commit fence in fenced
-- mode, the in-flight bound in concurrent mode.
CREATE OR REPLACE FUNCTION act._before_taking_ids() RETURNS void
LANGUAGE c VOLATILE
AS 'MODULE_PATHNAME', 'act_before_taking_ids';
-- grant none
