-- Monitoring (docs/reference.md, "Monitoring"). Ages are measured to
-- clock_timestamp(), not to the transaction's start.
-- Monitoring: what is stuck, how far
-- behind each consumer is, who holds what. Every figure comes from the work
-- set (partial indexes: rows with work, blocked rows) and a few index
-- lookups per row: never a scan of the log or of every subscription.

-- Blocked rows, for the counts; blocked changes rarely, so claims and acks
-- stay HOT updates (the work-set predicates already read the column).
CREATE INDEX subscriptions_blocked_ix ON act.subscription_rows (stream) WHERE blocked;

-- The subscriptions with work or blocked, each with its work mark (wide
-- marks included) and the oldest event it has yet to handle: for a literal
-- source the event after its watermark in that stream (found through the
-- watermark's own event), otherwise the first event after the watermark in
-- the log. Events that are not work for the row (other names) are not
-- skipped, so the age is an upper bound.
CREATE FUNCTION act._pending() RETURNS TABLE(stream text, lane text, at bigint, work_mark bigint, blocked boolean,
  error text, leased_by text, leased_until timestamptz, retry int, priority int, waiting_id bigint, waiting_since timestamptz)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
BEGIN ATOMIC
  WITH candidates AS (
    SELECT r.* FROM act.subscription_rows r WHERE NOT r.blocked AND r.at < r.correlated_at
    UNION
    SELECT r.* FROM act.subscription_rows r WHERE r.blocked
    UNION
    SELECT r.* FROM (SELECT m.class, max(m.mark) AS mark FROM act.wide_marks m GROUP BY m.class) k
      JOIN act.subscription_rows r ON r.class = k.class AND NOT r.blocked AND r.at < k.mark
                                   AND k.mark > coalesce(r.class_floor, -1)
  ), marked AS (
    SELECT c.*, greatest(c.correlated_at, (SELECT max(m.mark) FROM act.wide_marks m WHERE m.class = c.class
                                            HAVING max(m.mark) > coalesce(c.class_floor, -1))) AS mark,
           c.source IS NOT NULL AND NOT act._is_pattern(c.source) AS literal
      FROM candidates c
  ), waiting AS (
    SELECT m.*,
           CASE WHEN m.literal THEN
             (SELECT e.id FROM act.events e
               WHERE e.stream = m.source
                 AND e.version >= coalesce((SELECT p.version + 1 FROM act.events p WHERE p.id = m.at AND p.stream = m.source), 0)
                 AND e.id > m.at
               ORDER BY e.version LIMIT 1)
           ELSE (SELECT e.id FROM act.events e WHERE e.id > m.at ORDER BY e.id LIMIT 1) END AS waiting_id
      FROM marked m
  )
  SELECT w.stream, w.lane, w.at, w.mark, w.blocked, w.error, w.leased_by, w.leased_until, w.retry, w.priority,
         w.waiting_id, (SELECT e.created FROM act.events e WHERE e.id = w.waiting_id)
    FROM waiting w
   WHERE w.blocked OR w.at < w.mark;
END;

CREATE FUNCTION act.lag(lane text DEFAULT NULL, max_rows int DEFAULT 20)
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
COMMENT ON FUNCTION act.lag(text, int) IS
  'The subscriptions with work (and blocked ones), the one whose oldest waiting event is oldest first';

CREATE FUNCTION act.status()
RETURNS TABLE(mode text, horizon bigint, max_event_id bigint, sealed_size bigint, subscriptions bigint,
              with_work bigint, blocked bigint, leased bigint, expired_leases bigint, oldest_work_age interval,
              horizon_held_for interval, seal_stopped text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
  -- Without JIT: with seqscans off, a scan of the one-row act.log_state is costed
  -- high enough for JIT to compile the query for seconds on every call.
  SET jit = off AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH pending AS MATERIALIZED (SELECT * FROM act._pending())
  SELECT act.mode(), act.horizon(), act.max_event_id(), (SELECT l.size FROM act.log_state l),
         (SELECT count(*) FROM act.subscription_rows),
         (SELECT count(*) FROM pending p WHERE NOT p.blocked),
         (SELECT count(*) FROM pending p WHERE p.blocked),
         (SELECT count(*) FROM pending p WHERE p.leased_until > clock_timestamp()),
         -- A blocked row keeps the lease it was blocked under: it counts as blocked only.
         (SELECT count(*) FROM pending p WHERE NOT p.blocked AND p.leased_by IS NOT NULL
                                           AND p.leased_until <= clock_timestamp()),
         (SELECT clock_timestamp() - min(p.waiting_since) FROM pending p WHERE NOT p.blocked),
         (SELECT clock_timestamp() - min(h.since) FROM act.horizon_holders() h),
         act._seal_stop();
END $$;
COMMENT ON FUNCTION act.status() IS
  'One row: mode, horizon, log head, subscriptions with work, blocked, leased, expired leases, oldest work, held horizon, why sealing stopped';

-- Cumulative counters of this database since the server started or
-- act.reset_counters(); no rows in fenced mode, which has no shared memory
-- to keep them in.
CREATE FUNCTION act._counters() RETURNS TABLE(counter text, value bigint, since timestamptz)
LANGUAGE c STABLE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'act_counters';

CREATE FUNCTION act.reset_counters() RETURNS timestamptz
LANGUAGE c VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'act_reset_counters';
COMMENT ON FUNCTION act.reset_counters() IS 'Zeroes this database''s cumulative counters (concurrent mode); returns the reset time';

-- Prometheus-shaped figures: one row per sample. Labels never carry a stream
-- name (unbounded cardinality, and names can be personal data).
CREATE FUNCTION act.metrics() RETURNS TABLE(metric text, labels jsonb, value double precision)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
  -- Without JIT: with seqscans off, a scan of the one-row act.log_state is costed
  -- high enough for JIT to compile the query for seconds on every call.
  SET jit = off AS $$
#variable_conflict use_column
BEGIN
  -- One pass over the work set for every figure, store-wide and per lane.
  RETURN QUERY
  WITH pending AS MATERIALIZED (SELECT * FROM act._pending()),
  totals(metric, value) AS (VALUES
    ('pg_act_concurrent_mode', CASE WHEN act.mode() = 'concurrent' THEN 1 ELSE 0 END::double precision),
    ('pg_act_horizon', act.horizon()::double precision),
    ('pg_act_max_event_id', act.max_event_id()::double precision),
    ('pg_act_subscriptions', (SELECT count(*) FROM act.subscription_rows)::double precision),
    -- A blocked row keeps the lease it was blocked under: it counts as blocked only.
    ('pg_act_expired_leases', (SELECT count(*) FROM pending p WHERE NOT p.blocked
                                AND p.leased_by IS NOT NULL AND p.leased_until <= clock_timestamp())::double precision),
    ('pg_act_oldest_work_age_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT min(p.waiting_since) FROM pending p WHERE NOT p.blocked)), 0)::double precision),
    ('pg_act_horizon_held_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT min(h.since) FROM act.horizon_holders() h)), 0)::double precision),
    ('pg_act_log_entries', coalesce((SELECT l.size FROM act.log_state l), 0)::double precision),
    ('pg_act_log_seal_stopped', CASE WHEN act._seal_stop() IS NULL THEN 0 ELSE 1 END::double precision),
    -- The oldest event the log's tree does not hold yet: one primary-key lookup.
    ('pg_act_log_unsealed_age_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT e.created FROM act.events e
         WHERE e.id > coalesce((SELECT l.sealed_upto_id FROM act.log_state l), 0) ORDER BY e.id LIMIT 1)), 0)::double precision))
  SELECT t.metric, '{}'::jsonb, t.value FROM totals t
  UNION ALL
  SELECT 'pg_act_subscriptions_' || k.kind, jsonb_build_object('lane', l.lane),
         (SELECT count(*) FROM pending p
           WHERE p.lane = l.lane AND CASE k.kind WHEN 'with_work' THEN NOT p.blocked
                                                 WHEN 'blocked' THEN p.blocked
                                                 ELSE p.leased_until > clock_timestamp() END)::double precision
    FROM (SELECT DISTINCT p.lane FROM pending p) l
   CROSS JOIN (VALUES ('with_work'), ('blocked'), ('leased')) k(kind)
  UNION ALL
  SELECT 'pg_act_' || c.counter || '_total', '{}'::jsonb, c.value::double precision FROM act._counters() c
  UNION ALL
  SELECT 'pg_act_counters_reset_time_seconds', '{}'::jsonb, extract(epoch FROM min(c.since))::double precision
    FROM act._counters() c HAVING count(*) > 0
   ORDER BY 1, 2;
END $$;
COMMENT ON FUNCTION act.metrics() IS 'Monitoring figures as (metric, labels, value) rows for a Prometheus exporter';
