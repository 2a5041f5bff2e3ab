-- The hash chain (docs/hash-chain.md). act.event_hash is C++ (extension/log/event_hash.cpp).

CREATE FUNCTION act.event_hash(prev bytea, stream text, version int, name text, data jsonb, meta jsonb,
                               created timestamptz) RETURNS bytea
LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_event_hash';
COMMENT ON FUNCTION act.event_hash(bytea, text, int, text, jsonb, jsonb, timestamptz) IS
  'SHA-256(prev || encoding v1 of the event): the step of the per-stream hash chain';

-- Recomputes each event's hash from the stored hash before it (so one edit
-- reports one position) and checks that versions are contiguous and that a
-- stream starts at version 0 or at its recorded anchor. C++
-- (extension/log/verify.cpp): it reads the rows through the (stream,
-- version) index and hashes the stored jsonb without making text values of
-- it, where the query it replaces spent most of its time (PERFORMANCE.md).
-- It plans no query: the jit and parallel-worker settings that query needed
-- have nothing left to act on.
CREATE FUNCTION act.verify(stream text DEFAULT NULL)
RETURNS TABLE(stream text, events bigint, valid boolean, first_bad_version int)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_verify';
COMMENT ON FUNCTION act.verify(text) IS
  'Recomputes the hash chain of one stream (or all): the first version whose stored hash disagrees, NULL when valid';
