-- C++: extension/merkle/verify_log.cpp
CREATE OR REPLACE FUNCTION act.verify_log(from_size bigint DEFAULT 0, to_size bigint DEFAULT NULL)
RETURNS TABLE("position" bigint, id bigint, problem text)
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET jit = off
  SET max_parallel_workers_per_gather = 0
AS 'MODULE_PATHNAME', 'act_verify_log';
-- grant act_reader: Checks entries [from_size, to_size) against their events and the stored tree against its entries; no rows when all agree
