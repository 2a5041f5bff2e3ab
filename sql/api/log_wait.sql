-- Until a checkpoint covers the event: its size, or NULL at the timeout.
CREATE OR REPLACE FUNCTION act.log_wait(id bigint, timeout_ms int DEFAULT 10000) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  deadline timestamptz;
  entry bigint;
  covering bigint;
BEGIN
  IF log_wait.id IS NULL OR log_wait.timeout_ms IS NULL THEN
    RAISE EXCEPTION 'id and timeout_ms must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF log_wait.timeout_ms < 0 THEN
    RAISE EXCEPTION 'timeout_ms must be 0 or more, not %', log_wait.timeout_ms USING ERRCODE = 'invalid_parameter_value';
  END IF;
  deadline := clock_timestamp() + log_wait.timeout_ms * interval '1 millisecond';
  LOOP
    -- Each statement reads a fresh snapshot (READ COMMITTED).
    entry := act.log_position(log_wait.id);
    IF entry IS NOT NULL THEN
      SELECT min(c.size) INTO covering FROM act.checkpoints c WHERE c.size > entry;
      IF covering IS NOT NULL THEN RETURN covering; END IF;
    END IF;
    EXIT WHEN clock_timestamp() >= deadline;
    PERFORM pg_sleep(least(0.01, extract(epoch FROM deadline - clock_timestamp())::float8));
  END LOOP;
  RETURN NULL;
END $$;
-- grant act_reader: Waits until a checkpoint covers the event; the smallest such checkpoint's size, NULL at the timeout
