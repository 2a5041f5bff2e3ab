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
-- grant act_writer: Appends events to a stream atomically under optimistic concurrency (40001 on a version conflict)
