-- Writing. C++: extension/log/commit.cpp
-- A pinned search_path like every owner-rights function: its statements
-- name every schema today, and a statement a later change adds must not
-- resolve a name through the caller's search_path. The price is a GUC
-- change per call.
-- expected_version is bigint so that drivers binding int8 (JDBC setLong, many
-- ORMs) resolve it; int arguments and untyped literals resolve as before, and
-- one function leaves no call ambiguous.
CREATE OR REPLACE FUNCTION act.commit(stream text, events jsonb, meta jsonb DEFAULT '{}', expected_version bigint DEFAULT NULL)
RETURNS SETOF act.events
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_commit';
COMMENT ON FUNCTION act.commit(text, jsonb, jsonb, bigint) IS
  'Appends events to a stream atomically under optimistic concurrency (40001 on a version conflict)';
REVOKE ALL ON FUNCTION act.commit(text, jsonb, jsonb, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.commit(text, jsonb, jsonb, bigint) TO act_writer;
