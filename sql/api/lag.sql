CREATE OR REPLACE FUNCTION act.lag(lane text DEFAULT NULL, max_rows int DEFAULT 20)
RETURNS TABLE(stream text, lane_name text, at bigint, work_mark bigint, waiting_id bigint, waiting_since timestamptz,
              age interval, blocked boolean, error text, leased_by text, leased_until timestamptz, retry int)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_column
BEGIN
  IF max_rows IS NULL OR max_rows < 1 THEN
    RAISE EXCEPTION 'max_rows must be 1 or more, not %', coalesce(max_rows::text, 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN QUERY
  SELECT p.stream, p.lane, p.at, p.work_mark, p.waiting_id, p.waiting_since, clock_timestamp() - p.waiting_since,
         p.blocked, p.error, p.leased_by, p.leased_until, p.retry
    FROM act._pending() p
   WHERE lag.lane IS NULL OR p.lane = lag.lane
   ORDER BY p.waiting_since NULLS LAST, p.stream COLLATE "C"
   LIMIT max_rows;
END $$;
-- grant act_reader: The subscriptions with work (and blocked ones), the one whose oldest waiting event is oldest first
