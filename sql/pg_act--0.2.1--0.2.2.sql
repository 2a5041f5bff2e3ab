-- pg_act 0.2.1 -> 0.2.2.
-- - act.verify is C++: it reads the rows through the (stream, version) index
--   and hashes the stored jsonb without making text of it.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.2.2'" to load this file. \quit

-- act.verify in C++ (extension/log/verify.cpp): same signature, results and
-- grants; it plans no query, so it drops the jit and parallel-worker settings.
CREATE OR REPLACE FUNCTION act.verify(stream text DEFAULT NULL)
RETURNS TABLE(stream text, events bigint, valid boolean, first_bad_version int)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_verify';
