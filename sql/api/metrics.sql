-- Prometheus-shaped figures: one row per sample. Labels never carry a stream
-- name (unbounded cardinality, and names can be personal data).
CREATE OR REPLACE FUNCTION act.metrics() RETURNS TABLE(metric text, labels jsonb, value double precision)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
  -- Without JIT: with seqscans off, a scan of the one-row act.log_state is costed
  -- high enough for JIT to compile the query for seconds on every call.
  SET jit = off AS $$
#variable_conflict use_column
BEGIN
  -- One pass over the work set for every figure, store-wide and per lane.
  RETURN QUERY
  WITH counts AS MATERIALIZED (SELECT * FROM act._work_counts()),
  totals(metric, value) AS (VALUES
    ('pg_act_concurrent_mode', CASE WHEN act.mode() = 'concurrent' THEN 1 ELSE 0 END::double precision),
    ('pg_act_horizon', act.horizon()::double precision),
    ('pg_act_max_event_id', act.max_event_id()::double precision),
    ('pg_act_subscriptions', (SELECT count(*) FROM act.subscription_rows)::double precision),
    ('pg_act_expired_leases', coalesce((SELECT sum(c.expired_leases) FROM counts c), 0)::double precision),
    ('pg_act_oldest_work_age_seconds', coalesce(extract(epoch FROM clock_timestamp() -
       (SELECT e.created FROM act.events e WHERE e.id = act._oldest_waiting())), 0)::double precision),
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
  SELECT 'pg_act_subscriptions_' || k.kind, jsonb_build_object('lane', c.lane),
         (CASE k.kind WHEN 'with_work' THEN c.with_work WHEN 'blocked' THEN c.blocked ELSE c.leased END)::double precision
    FROM counts c
   CROSS JOIN (VALUES ('with_work'), ('blocked'), ('leased')) k(kind)
  UNION ALL
  SELECT 'pg_act_' || c.counter || '_total', '{}'::jsonb, c.value::double precision FROM act._counters() c
  UNION ALL
  SELECT 'pg_act_counters_reset_time_seconds', '{}'::jsonb, extract(epoch FROM min(c.since))::double precision
    FROM act._counters() c HAVING count(*) > 0
   ORDER BY 1, 2;
END $$;
-- grant act_reader: Monitoring figures as (metric, labels, value) rows for a Prometheus exporter
