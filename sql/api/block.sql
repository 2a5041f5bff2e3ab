-- C++: extension/workset/leases.cpp
CREATE OR REPLACE FUNCTION act.block(leases jsonb)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, error text, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_block';
-- grant act_worker: Blocks streams whose lease is still held by `by`, recording the error
