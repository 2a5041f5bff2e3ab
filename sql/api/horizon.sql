-- C++: extension/log/horizon_sql.cpp
-- The horizon itself is kept in extension/log/horizon.cpp.
CREATE OR REPLACE FUNCTION act.horizon() RETURNS bigint
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_horizon';
COMMENT ON FUNCTION act.horizon() IS
  'The highest id H such that every event with id <= H that will ever be visible is visible now';
REVOKE ALL ON FUNCTION act.horizon() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.horizon() TO act_reader;
