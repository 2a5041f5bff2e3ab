-- Subscriptions and the drain (docs/reference.md). All C++: extension/workset/subscribe.cpp,
-- widen.cpp, claim.cpp, leases.cpp, stream_admin.cpp.

CREATE FUNCTION act.subscribe(subscriptions jsonb, correlated_at bigint DEFAULT NULL, correlator jsonb DEFAULT NULL)
RETURNS TABLE(subscribed int, watermark bigint, correlated_at bigint, correlating boolean)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_subscribe';
COMMENT ON FUNCTION act.subscribe(jsonb, bigint, jsonb) IS
  'Registers or merges reaction targets (new ones back-filled), advances the correlate checkpoint, leases the correlator';

CREATE FUNCTION act.widen(stream text, names jsonb)
RETURNS TABLE(stream text, names text[], added text[], at bigint, correlated_at bigint)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_widen';
COMMENT ON FUNCTION act.widen(text, jsonb) IS
  'Adds event names to a subscription and back-fills its work mark for them (events at or below its watermark stay behind)';

-- enable_seqscan = off: on a small table the planner would scan it whole to
-- lock and lease ten rows, and its cost would grow with the table; claim's
-- plan stays on the work-set and primary-key indexes at every size.
CREATE FUNCTION act.claim(from_lagging int, from_leading int, by text, millis int, lane text DEFAULT NULL)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
  -- The class part's estimates are pessimistic (a recursive scan per class):
  -- JIT would compile the plan for seconds to run it in a millisecond.
  SET jit = off
AS 'MODULE_PATHNAME', 'act_claim';
COMMENT ON FUNCTION act.claim(int, int, text, int, text) IS
  'Leases up to from_lagging + from_leading streams with work to `by` for `millis` ms, skipping rows others hold';

CREATE FUNCTION act.ack(leases jsonb)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_ack';
COMMENT ON FUNCTION act.ack(jsonb) IS
  'Sets watermarks and releases leases still held by their `by` (a `due` entry also defers the stream)';

CREATE FUNCTION act.block(leases jsonb)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, error text, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_block';
COMMENT ON FUNCTION act.block(jsonb) IS 'Blocks streams whose lease is still held by `by`, recording the error';

CREATE FUNCTION act.defer(selector jsonb, until timestamptz) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_defer';
COMMENT ON FUNCTION act.defer(jsonb, timestamptz) IS 'Makes the selected streams unclaimable until a time';

CREATE FUNCTION act.reset(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_reset';
COMMENT ON FUNCTION act.reset(jsonb) IS 'Rewinds the selected streams to replay from the start (work marks kept)';

CREATE FUNCTION act.unblock(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_unblock';
COMMENT ON FUNCTION act.unblock(jsonb) IS 'Unblocks the selected blocked streams; they resume at their watermark';

CREATE FUNCTION act.release(selector jsonb) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_release';
COMMENT ON FUNCTION act.release(jsonb) IS
  'Drops the leases of the selected streams so any worker may claim them at once; watermarks, retries and blocks stay';

CREATE FUNCTION act.prioritize(selector jsonb, priority int) RETURNS int
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_prioritize';
COMMENT ON FUNCTION act.prioritize(jsonb, int) IS 'Sets the priority of the selected streams';

CREATE FUNCTION act.query_streams(filter jsonb DEFAULT '{}', after text DEFAULT NULL, max_streams int DEFAULT 100)
RETURNS SETOF act.subscriptions
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_query_streams';
COMMENT ON FUNCTION act.query_streams(jsonb, text, int) IS
  'Subscription rows ordered by stream (C collation), keyset-paginated by `after`';

CREATE FUNCTION act.claim_events(from_lagging int, from_leading int, by text, millis int, lane text DEFAULT NULL,
                                 max_events int DEFAULT 100, acks jsonb DEFAULT NULL, max_bytes int DEFAULT 16777216)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text, events jsonb)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off SET jit = off
AS 'MODULE_PATHNAME', 'act_claim_events';
COMMENT ON FUNCTION act.claim_events(int, int, text, int, text, int, jsonb, int) IS
  'A drain cycle in one call: applies acks as act.ack, claims as act.claim, and hands each claimed stream its events after at';
