-- Reading. act.query is C++ (extension/query.cpp).

CREATE FUNCTION act.query(
  stream text DEFAULT NULL, after bigint DEFAULT NULL, before bigint DEFAULT NULL, names text[] DEFAULT NULL,
  max_events int DEFAULT NULL, backward boolean DEFAULT false, stream_exact boolean DEFAULT true,
  created_after timestamptz DEFAULT NULL, created_before timestamptz DEFAULT NULL, correlation text DEFAULT NULL,
  with_snaps boolean DEFAULT false)
RETURNS SETOF act.events
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_query';
COMMENT ON FUNCTION act.query(text, bigint, bigint, text[], int, boolean, boolean, timestamptz, timestamptz, text, boolean) IS
  'Reads events in id order (or backward) with optional filters; never above act.horizon() except for one exact stream';

CREATE FUNCTION act.version(stream text) RETURNS int
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT coalesce((SELECT e.version FROM act.events e WHERE e.stream = version.stream
                    ORDER BY e.version DESC LIMIT 1), -1);
END;
COMMENT ON FUNCTION act.version(text) IS 'The last version of a stream, -1 when it has no events';

CREATE FUNCTION act.max_event_id() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT coalesce((SELECT e.id FROM act.events e ORDER BY e.id DESC LIMIT 1), -1);
END;
COMMENT ON FUNCTION act.max_event_id() IS 'The highest event id present (snapshots included), -1 when none';

-- Fenced mode: commits hold the fence until they are visible, so ids become
-- visible in id order and the highest visible id is the horizon.
CREATE FUNCTION act.horizon() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT coalesce((SELECT e.id FROM act.events e ORDER BY e.id DESC LIMIT 1), -1);
END;
COMMENT ON FUNCTION act.horizon() IS
  'The highest id H such that every event with id <= H that will ever be visible is visible now';

CREATE FUNCTION act.mode() RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
RETURN 'fenced';
COMMENT ON FUNCTION act.mode() IS
  '''fenced'' (commits pass one fence) or ''concurrent'' (preloaded: commits in parallel behind the in-flight horizon)';

CREATE FUNCTION act.horizon_holders() RETURNS TABLE(pid int, since timestamptz, lowest_id bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT l.pid, a.xact_start, NULL::bigint
    FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
   WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND l.classid = 1633907745 AND l.objid = 1 AND l.objsubid = 2
   ORDER BY a.xact_start, l.pid;
END;
COMMENT ON FUNCTION act.horizon_holders() IS 'The transactions holding the horizon back (in fenced mode: the commit fence holder)';

CREATE FUNCTION act.wait(after bigint, timeout_ms int) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  deadline timestamptz;
  seen bigint;
BEGIN
  IF wait.after IS NULL OR wait.timeout_ms IS NULL THEN
    RAISE EXCEPTION 'after and timeout_ms must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF wait.timeout_ms < 0 THEN
    RAISE EXCEPTION 'timeout_ms must be 0 or more, not %', wait.timeout_ms USING ERRCODE = 'invalid_parameter_value';
  END IF;
  deadline := clock_timestamp() + make_interval(secs => wait.timeout_ms / 1000.0);
  -- Fenced mode polls; each statement sees the latest commits (read committed).
  LOOP
    seen := act.horizon();
    EXIT WHEN seen > wait.after OR clock_timestamp() >= deadline;
    PERFORM pg_sleep(least(0.01, greatest(0, extract(epoch FROM deadline - clock_timestamp()))::float8));
  END LOOP;
  RETURN seen;
END $$;
COMMENT ON FUNCTION act.wait(bigint, int) IS 'Waits until act.horizon() passes after, or the timeout; returns the horizon';
