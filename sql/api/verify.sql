-- C++: extension/log/verify.cpp
-- Recomputes each event's hash from the stored hash before it (so one edit
-- reports one position) and checks that versions are contiguous and that a
-- stream starts at version 0 or at its recorded anchor. It reads the rows
-- through the (stream, version) index and hashes the stored jsonb without
-- making text values of it, where the query it replaces spent most of its
-- time (PERFORMANCE.md).
-- It plans no query: the jit and parallel-worker settings that query needed
-- have nothing left to act on.
CREATE OR REPLACE FUNCTION act.verify(stream text DEFAULT NULL)
RETURNS TABLE(stream text, events bigint, valid boolean, first_bad_version int)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_verify';
-- grant act_reader: Recomputes the hash chain of one stream (or all): the first version whose stored hash disagrees, NULL when valid
