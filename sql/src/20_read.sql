-- Reading. act.query is C++ (extension/log/query.cpp).

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

-- C++ (extension/log/version.cpp): retrying writers call it before every
-- attempt. Its partition check reads act.partitioning through SPI, so it
-- pins search_path like every owner-rights function.
CREATE FUNCTION act.version(stream text) RETURNS int
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_version';
COMMENT ON FUNCTION act.version(text) IS 'The last version of a stream, -1 when it has no events';

CREATE FUNCTION act.max_event_id() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
  SELECT coalesce((SELECT e.id FROM act.events e ORDER BY e.id DESC LIMIT 1), -1);
END;
COMMENT ON FUNCTION act.max_event_id() IS 'The highest event id present (snapshots included), -1 when none';

-- The horizon, act.wait and the mode are C++ (extension/log/horizon.cpp).
CREATE FUNCTION act.horizon() RETURNS bigint
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_horizon';
COMMENT ON FUNCTION act.horizon() IS
  'The highest id H such that every event with id <= H that will ever be visible is visible now';

CREATE FUNCTION act.mode() RETURNS text
LANGUAGE c STABLE
AS 'MODULE_PATHNAME', 'act_mode';
COMMENT ON FUNCTION act.mode() IS
  '''fenced'' (commits pass one fence) or ''concurrent'' (preloaded: commits in parallel behind the in-flight horizon)';

CREATE FUNCTION act._inflight_holders() RETURNS TABLE(pid int, since timestamptz, lowest_id bigint)
LANGUAGE c VOLATILE
AS 'MODULE_PATHNAME', 'act_inflight_holders';

-- For act.truncate, before its INSERT takes ids: the commit fence in fenced
-- mode, the in-flight bound in concurrent mode.
CREATE FUNCTION act._before_taking_ids() RETURNS void
LANGUAGE c VOLATILE
AS 'MODULE_PATHNAME', 'act_before_taking_ids';

-- The commit fence's lock tag (extension/log/locks.hpp), as pg_locks shows it.
CREATE FUNCTION act._fence_lock_tag() RETURNS TABLE(classid oid, objid oid, objsubid int2)
LANGUAGE c IMMUTABLE
AS 'MODULE_PATHNAME', 'act_fence_lock_tag';

CREATE FUNCTION act.horizon_holders() RETURNS TABLE(pid int, since timestamptz, lowest_id bigint)
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
COMMENT ON FUNCTION act.horizon_holders() IS 'The transactions holding the horizon back';

CREATE FUNCTION act.wait(after bigint, timeout_ms int) RETURNS bigint
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_wait';
COMMENT ON FUNCTION act.wait(bigint, int) IS
  'Waits until act.horizon() passes after, or the timeout; returns the horizon (woken through shared memory in concurrent mode)';

DO $$
BEGIN
  IF act.mode() = 'fenced' THEN
    RAISE NOTICE 'pg_act runs in fenced mode: commits pass one fence. Add pg_act to shared_preload_libraries for concurrent commits.';
  END IF;
END $$;
