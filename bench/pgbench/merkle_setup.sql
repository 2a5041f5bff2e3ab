-- Streams merkle-:first to merkle-:streams of 1,000 events each, committed
-- 1,000 per call, shaped like verify_setup.sql's (about 300 bytes each).
SELECT count(*)
  FROM generate_series(:first, :streams) s,
       LATERAL act.commit('merkle-' || s,
         (SELECT jsonb_agg(jsonb_build_object('name', 'bench.event',
                                              'data', jsonb_build_object('index', i, 'data', 'payload-' || i)) ORDER BY i)
            FROM generate_series(1, 1000) i),
         jsonb_build_object('actor', 'benchmark', 'source', 'vault', 'correlationId', 'corr-' || s));
