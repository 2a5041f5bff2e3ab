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
-- grant act_reader: One row: mode, horizon, log head, subscriptions with work, blocked, leased, expired leases, oldest work, held horizon, why sealing stopped
