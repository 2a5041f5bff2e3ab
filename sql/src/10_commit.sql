-- Writing. act.commit is C++ (extension/log/commit.cpp).

-- A pinned search_path like every owner-rights function: its statements
-- name every schema today, and a statement a later change adds must not
-- resolve a name through the caller's search_path. The price is a GUC
-- change per call.
-- expected_version is bigint so that drivers binding int8 (JDBC setLong, many
-- ORMs) resolve it; int arguments and untyped literals resolve as before, and
-- one function leaves no call ambiguous.
CREATE FUNCTION act.commit(stream text, events jsonb, meta jsonb DEFAULT '{}', expected_version bigint DEFAULT NULL)
RETURNS SETOF act.events
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_commit';
COMMENT ON FUNCTION act.commit(text, jsonb, jsonb, bigint) IS
  'Appends events to a stream atomically under optimistic concurrency (40001 on a version conflict)';

CREATE FUNCTION act.commit_by_key(stream text, idempotency_key text) RETURNS SETOF act.events
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_commit_by_key';
COMMENT ON FUNCTION act.commit_by_key(text, text) IS
  'The events the commit with this meta.idempotency_key wrote to the stream, by version (none when no such commit)';

CREATE FUNCTION act.forget_pii(stream text) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  forgotten bigint;
BEGIN
  IF forget_pii.stream IS NULL THEN
    RAISE EXCEPTION 'stream must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  -- Checked under the lock act.set_partition's conflicts with: taking it
  -- brought in a setting committed while this call waited (as act.commit).
  LOCK TABLE act.events IN ROW EXCLUSIVE MODE;
  PERFORM act._require_hosted(forget_pii.stream);
  UPDATE act.events e SET pii = NULL WHERE e.stream = forget_pii.stream AND e.pii IS NOT NULL;
  GET DIAGNOSTICS forgotten = ROW_COUNT;
  RETURN forgotten;
END $$;
COMMENT ON FUNCTION act.forget_pii(text) IS 'Erases the pii of every event of a stream; the hash chain stays valid';
