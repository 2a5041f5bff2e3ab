-- C++: extension/log/horizon_sql.cpp
CREATE OR REPLACE FUNCTION act.mode() RETURNS text
LANGUAGE c STABLE
AS 'MODULE_PATHNAME', 'act_mode';
-- grant act_reader: 'fenced' (commits pass one fence) or 'concurrent' (preloaded: commits in parallel behind the in-flight horizon)
