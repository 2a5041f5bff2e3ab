-- C++: extension/workset/claim_events.cpp
CREATE OR REPLACE FUNCTION act.claim_events(from_lagging int, from_leading int, by text, millis int, lane text DEFAULT NULL,
                                 max_events int DEFAULT 100, acks jsonb DEFAULT NULL, max_bytes int DEFAULT 16777216,
                                 wait_millis int DEFAULT 0)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text, events jsonb)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off SET jit = off
AS 'MODULE_PATHNAME', 'act_claim_events';
-- grant act_worker: A drain cycle in one call: applies acks as act.ack, claims as act.claim, and hands each claimed stream its events after at; finding nothing, waits up to wait_millis for a commit and claims again
