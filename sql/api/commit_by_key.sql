-- C++: extension/log/commit_keys.cpp
CREATE OR REPLACE FUNCTION act.commit_by_key(stream text, idempotency_key text) RETURNS SETOF act.events
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_commit_by_key';
-- grant act_reader: The events the commit with this meta.idempotency_key wrote to the stream, by version (none when no such commit)
