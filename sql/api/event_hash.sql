-- The hash chain's step (docs/hash-chain.md). C++: extension/log/event_hash.cpp
CREATE OR REPLACE FUNCTION act.event_hash(prev bytea, stream text, version int, name text, data jsonb, meta jsonb,
                               created timestamptz) RETURNS bytea
LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_event_hash';
-- grant act_reader: SHA-256(prev || encoding v1 of the event): the step of the per-stream hash chain
