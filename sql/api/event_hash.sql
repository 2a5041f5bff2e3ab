-- The hash chain's step (docs/hash-chain.md). C++: extension/log/event_hash.cpp
CREATE OR REPLACE FUNCTION act.event_hash(prev bytea, stream text, version int, name text, data jsonb, meta jsonb,
                               created timestamptz) RETURNS bytea
LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_event_hash';
COMMENT ON FUNCTION act.event_hash(bytea, text, int, text, jsonb, jsonb, timestamptz) IS
  'SHA-256(prev || encoding v1 of the event): the step of the per-stream hash chain';
REVOKE ALL ON FUNCTION act.event_hash(bytea, text, int, text, jsonb, jsonb, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.event_hash(bytea, text, int, text, jsonb, jsonb, timestamptz) TO act_reader;
