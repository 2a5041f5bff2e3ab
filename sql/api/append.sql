-- C++: extension/log/append.cpp
-- Consistency boundaries (docs/dcb.md).
CREATE OR REPLACE FUNCTION act.append(events jsonb, condition jsonb DEFAULT NULL, meta jsonb DEFAULT '{}')
RETURNS SETOF act.events
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_append';
-- grant act_writer: Appends events to one or more streams atomically unless the condition fails (40001): matching events after an id, or other stream versions
