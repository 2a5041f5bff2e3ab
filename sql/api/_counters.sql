-- C++: extension/plumbing/counters.cpp
-- Cumulative counters of this database since the server started or
-- act.reset_counters(); no rows in fenced mode, which has no shared memory
-- to keep them in.
CREATE OR REPLACE FUNCTION act._counters() RETURNS TABLE(counter text, value bigint, since timestamptz)
LANGUAGE c STABLE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'act_counters';
-- grant none
