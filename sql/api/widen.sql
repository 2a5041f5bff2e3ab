-- C++: extension/workset/widen.cpp
CREATE OR REPLACE FUNCTION act.widen(stream text, names jsonb)
RETURNS TABLE(stream text, names text[], added text[], at bigint, correlated_at bigint)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_widen';
-- grant act_worker: Adds event names to a subscription and back-fills its work mark for them (events at or below its watermark stay behind)
