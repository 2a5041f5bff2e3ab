-- C++: extension/plumbing/counters.cpp
CREATE OR REPLACE FUNCTION act.reset_counters() RETURNS timestamptz
LANGUAGE c VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'act_reset_counters';
COMMENT ON FUNCTION act.reset_counters() IS 'Zeroes this database''s cumulative counters (concurrent mode); returns the reset time';
REVOKE ALL ON FUNCTION act.reset_counters() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.reset_counters() TO act_admin;
