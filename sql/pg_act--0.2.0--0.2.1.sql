-- pg_act 0.2.0 -> 0.2.1.
-- - Cumulative counters in concurrent mode (commits, events, conflicts,
--   claims, retries, acks, blocks), kept in shared memory per database:
--   act._counters() behind act.metrics(), act.reset_counters() for act_admin.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.2.1'" to load this file. \quit

CREATE FUNCTION act._counters() RETURNS TABLE(counter text, value bigint, since timestamptz)
LANGUAGE c STABLE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'act_counters';
REVOKE ALL ON FUNCTION act._counters() FROM PUBLIC;

CREATE FUNCTION act.reset_counters() RETURNS timestamptz
LANGUAGE c VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'act_reset_counters';
COMMENT ON FUNCTION act.reset_counters() IS 'Zeroes this database''s cumulative counters (concurrent mode); returns the reset time';
REVOKE ALL ON FUNCTION act.reset_counters() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.reset_counters() TO act_admin;

CREATE OR REPLACE FUNCTION act.metrics() RETURNS TABLE(metric text, labels jsonb, value double precision)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off AS $$
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
    ('pg_act_expired_leases', (SELECT count(*) FROM pending p
                                WHERE p.leased_by IS NOT NULL AND p.leased_until <= clock_timestamp())::double precision),
    ('pg_act_oldest_work_age_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT min(p.waiting_since) FROM pending p WHERE NOT p.blocked)), 0)::double precision),
    ('pg_act_horizon_held_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT min(h.since) FROM act.horizon_holders() h)), 0)::double precision))
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
