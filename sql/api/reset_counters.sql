-- C++: extension/plumbing/counters.cpp
CREATE OR REPLACE FUNCTION act.reset_counters() RETURNS timestamptz
LANGUAGE c VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'act_reset_counters';
-- grant act_admin: Zeroes this database's cumulative counters (concurrent mode); returns the reset time
