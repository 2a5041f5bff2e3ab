CREATE OR REPLACE FUNCTION act.status()
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
  WITH counts AS MATERIALIZED (SELECT * FROM act._work_counts())
  SELECT act.mode(), act.horizon(), act.max_event_id(), (SELECT l.size FROM act.log_state l),
         (SELECT count(*) FROM act.subscription_rows),
         (SELECT coalesce(sum(c.with_work), 0)::bigint FROM counts c),
         (SELECT coalesce(sum(c.blocked), 0)::bigint FROM counts c),
         (SELECT coalesce(sum(c.leased), 0)::bigint FROM counts c),
         (SELECT coalesce(sum(c.expired_leases), 0)::bigint FROM counts c),
         (SELECT clock_timestamp() - e.created FROM act.events e WHERE e.id = act._oldest_waiting()),
         (SELECT clock_timestamp() - min(h.since) FROM act.horizon_holders() h),
         act._seal_stop();
END $$;
-- grant act_reader: One row: mode, horizon, log head, subscriptions with work, blocked, leased, expired leases, oldest work, held horizon, why sealing stopped
