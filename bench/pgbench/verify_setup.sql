-- :events events on stream :'stream', committed 1,000 per call, shaped like
-- Attestia's benchmark events (about 300 bytes each with the meta).
SELECT count(*)
  FROM generate_series(0, :events - 1, 1000) chunk,
       LATERAL act.commit(:'stream',
         (SELECT jsonb_agg(jsonb_build_object('name', 'bench.event',
                                              'data', jsonb_build_object('index', i, 'data', 'payload-' || i)) ORDER BY i)
            FROM generate_series(chunk, least(chunk + 999, :events - 1)) i),
         jsonb_build_object('actor', 'benchmark', 'source', 'vault', 'correlationId', 'corr-' || chunk));
ANALYZE act.events;
