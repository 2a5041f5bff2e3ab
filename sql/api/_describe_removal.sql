-- C++: extension/merkle/removal_records.cpp
-- The positions and the statement (the record event's data) for removing
-- these sealed events.
CREATE OR REPLACE FUNCTION act._describe_removal(ids bigint[], before_upgrade boolean)
RETURNS TABLE(positions text, statement text)
LANGUAGE c VOLATILE SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_describe_removal';
-- grant none
