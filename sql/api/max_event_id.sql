CREATE OR REPLACE FUNCTION act.max_event_id() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT coalesce((SELECT e.id FROM act.events e ORDER BY e.id DESC LIMIT 1), -1);
END;
-- grant act_reader: The highest event id present (snapshots included), -1 when none
