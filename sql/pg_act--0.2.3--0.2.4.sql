-- pg_act 0.2.3 -> 0.2.4.
-- - Idempotent commits: act.commit writes a commit whose meta carries
--   "idempotency_key" at most once per stream and answers its retries with
--   the rows it wrote; act.commit_by_key finds them. The index is built over
--   the whole log here (keyed events only end up in it).
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.2.4'" to load this file. \quit

CREATE INDEX events_idempotency_ix ON act.events (stream, (meta ->> 'idempotency_key')) WHERE meta ? 'idempotency_key';

CREATE FUNCTION act.commit_by_key(stream text, idempotency_key text) RETURNS SETOF act.events
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_commit_by_key';
COMMENT ON FUNCTION act.commit_by_key(text, text) IS
  'The events the commit with this meta.idempotency_key wrote to the stream, by version (none when no such commit)';
REVOKE ALL ON FUNCTION act.commit_by_key(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.commit_by_key(text, text) TO act_reader;
