-- :subscriptions subscriptions, each following a stream of its own; the
-- streams' events interleave in id order (one event each per round), so a
-- row acked one id further still has work for as many cycles as the log has ids.
SELECT count(*) FROM act.subscribe((SELECT jsonb_agg(jsonb_build_object('stream', 'acked-' || s, 'source', 'acked-src-' || s))
                                     FROM generate_series(1, :subscriptions) s));
DO $$
BEGIN
  FOR round IN 1..200 LOOP
    FOR s IN 1..current_setting('bench.subscriptions')::int LOOP
      PERFORM count(*) FROM act.commit('acked-src-' || s, '[{"name": "Happened"}]');
    END LOOP;
  END LOOP;
END $$;
ANALYZE act.subscription_rows;
ANALYZE act.events;
