-- C++: extension/merkle/log_sql.cpp
-- Why sealing cannot go on: the first event the tree lacks has a hash that
-- is not 32 bytes (one primary-key lookup). NULL when nothing stops it.
CREATE OR REPLACE FUNCTION act._seal_stop() RETURNS text
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_seal_stop';
-- grant none
