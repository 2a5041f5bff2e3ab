-- C++: extension/log/horizon_sql.cpp
-- The horizon itself is kept in extension/log/horizon.cpp.
CREATE OR REPLACE FUNCTION act.horizon() RETURNS bigint
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_horizon';
-- grant act_reader: The highest id H such that every event with id <= H that will ever be visible is visible now
