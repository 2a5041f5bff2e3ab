-- C++: extension/workset/widen.cpp
CREATE OR REPLACE FUNCTION act.widen(stream text, names jsonb)
RETURNS TABLE(stream text, names text[], added text[], at bigint, correlated_at bigint)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_widen';
COMMENT ON FUNCTION act.widen(text, jsonb) IS
  'Adds event names to a subscription and back-fills its work mark for them (events at or below its watermark stay behind)';
REVOKE ALL ON FUNCTION act.widen(text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.widen(text, jsonb) TO act_worker;
