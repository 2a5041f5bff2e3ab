CREATE OR REPLACE FUNCTION act.horizon_holders() RETURNS TABLE(pid int, since timestamptz, lowest_id bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF act.mode() = 'concurrent' THEN
    RETURN QUERY SELECT * FROM act._inflight_holders();
    RETURN;
  END IF;
  -- Fenced mode: the transaction holding the commit fence.
  RETURN QUERY
  SELECT l.pid, a.xact_start, NULL::bigint
    FROM pg_locks l JOIN act._fence_lock_tag() t ON l.classid = t.classid AND l.objid = t.objid AND l.objsubid = t.objsubid
    LEFT JOIN pg_stat_activity a ON a.pid = l.pid
   WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
   ORDER BY a.xact_start, l.pid;
END $$;
-- grant act_reader: The transactions holding the horizon back
