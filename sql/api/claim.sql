-- C++: extension/workset/claim.cpp
-- enable_seqscan = off: on a small table the planner would scan it whole to
-- lock and lease ten rows, and its cost would grow with the table; claim's
-- plan stays on the work-set and primary-key indexes at every size.
CREATE OR REPLACE FUNCTION act.claim(from_lagging int, from_leading int, by text, millis int, lane text DEFAULT NULL)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
  -- The class part's estimates are pessimistic (a recursive scan per class):
  -- JIT would compile the plan for seconds to run it in a millisecond.
  SET jit = off
AS 'MODULE_PATHNAME', 'act_claim';
-- grant act_worker: Leases up to from_lagging + from_leading streams with work to `by` for `millis` ms, skipping rows others hold
