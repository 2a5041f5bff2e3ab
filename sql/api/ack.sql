-- C++: extension/workset/leases.cpp
CREATE OR REPLACE FUNCTION act.ack(leases jsonb)
RETURNS TABLE(stream text, source text, at bigint, by text, retry int, lagging boolean, lane text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_ack';
-- grant act_worker: Sets watermarks and releases leases still held by their `by` (a `due` entry also defers the stream)
