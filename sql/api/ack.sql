-- C++: extension/workset/leases.cpp
CREATE OR REPLACE FUNCTION act.ack(leases jsonb)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_ack';
COMMENT ON FUNCTION act.ack(jsonb) IS
  'Sets watermarks and releases leases still held by their `by` (a `due` entry also defers the stream)';
REVOKE ALL ON FUNCTION act.ack(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.ack(jsonb) TO act_worker;
