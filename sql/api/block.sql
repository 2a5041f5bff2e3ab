-- C++: extension/workset/leases.cpp
CREATE OR REPLACE FUNCTION act.block(leases jsonb)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, error text, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_block';
COMMENT ON FUNCTION act.block(jsonb) IS 'Blocks streams whose lease is still held by `by`, recording the error';
REVOKE ALL ON FUNCTION act.block(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.block(jsonb) TO act_worker;
