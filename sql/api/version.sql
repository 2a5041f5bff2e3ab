-- C++: extension/log/version.cpp
-- Retrying writers call it before every
-- attempt. Its partition check reads act.partitioning through SPI, so it
-- pins search_path like every owner-rights function.
CREATE OR REPLACE FUNCTION act.version(stream text) RETURNS int
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_version';
-- grant act_reader: The last version of a stream, -1 when it has no events
