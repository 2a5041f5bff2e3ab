-- pg_act 0.2.2 -> 0.2.3.
-- - act.version is C++ (extension/log/version.cpp): the SQL function was
--   planned on every call, most of the work of a writer retrying on 40001.
--   It runs no SQL, so it pins no search_path.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.2.3'" to load this file. \quit

CREATE OR REPLACE FUNCTION act.version(stream text) RETURNS int
LANGUAGE c STABLE SECURITY DEFINER
AS 'MODULE_PATHNAME', 'act_version';
