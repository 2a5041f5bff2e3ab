-- C++: extension/workset/take_over.cpp
CREATE OR REPLACE FUNCTION act.take_over(successor text, former text, keep_name boolean DEFAULT false)
RETURNS TABLE(stream text, source text, at bigint, former text, former_source text)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_take_over';
-- grant act_worker: A subscription takes over another's watermark (retry, block and deferral too) and the other is removed; with keep_name it then takes the other's name
