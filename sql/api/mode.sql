-- C++: extension/log/horizon_sql.cpp
CREATE OR REPLACE FUNCTION act.mode() RETURNS text
LANGUAGE c STABLE
AS 'MODULE_PATHNAME', 'act_mode';
COMMENT ON FUNCTION act.mode() IS
  '''fenced'' (commits pass one fence) or ''concurrent'' (preloaded: commits in parallel behind the in-flight horizon)';
REVOKE ALL ON FUNCTION act.mode() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.mode() TO act_reader;
