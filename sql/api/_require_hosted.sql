-- C++: extension/partitions/hosted_partition.cpp
-- For the SQL-language functions that take a stream (forget_pii, truncate, query_stats).
CREATE OR REPLACE FUNCTION act._require_hosted(stream text) RETURNS void
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_require_hosted';
-- grant none
