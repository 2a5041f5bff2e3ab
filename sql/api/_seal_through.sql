-- C++: extension/merkle/log_sql.cpp
-- For act.truncate: seals through an id, waiting for the horizon to reach it.
CREATE OR REPLACE FUNCTION act._seal_through(id bigint, timeout_ms int DEFAULT 10000) RETURNS void
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_seal_through';
-- grant none
