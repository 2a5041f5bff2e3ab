-- C++: extension/log/read.cpp
-- Consistency boundaries (docs/dcb.md).
CREATE OR REPLACE FUNCTION act.read(query jsonb, after bigint DEFAULT -1, "limit" int DEFAULT NULL)
RETURNS TABLE(id bigint, stream text, version int, name text, data jsonb, meta jsonb, created timestamptz, tags text[])
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_read';
-- grant act_reader: The events a query of types and tags matches after an id, in id order, never above act.horizon()
