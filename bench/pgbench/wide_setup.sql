-- :wide source-less and pattern subscriptions nobody claims here, next to 10
-- literal ones with work in lane 'hot': half source-less in lane 'cold' (one
-- class, so every commit gives them work), half with pattern sources that
-- match no committed stream (ten classes), as act.subscribe creates them.
SELECT count(*) FROM act.subscribe((SELECT coalesce(jsonb_agg(jsonb_build_object('stream', 'cold-' || i, 'lane', 'cold')), '[]')
                                      FROM generate_series(1, :wide / 2) i));
SELECT count(*) FROM act.subscribe((SELECT coalesce(jsonb_agg(jsonb_build_object('stream', 'pattern-' || i,
                                                              'source', '^elsewhere-' || (i % 10) || '-')), '[]')
                                      FROM generate_series(1, :wide / 2) i));
INSERT INTO act.subscription_rows (stream, source, lane, at, correlated_at)
SELECT 'hot-' || i, 'hot-source-' || i, 'hot', 5, 9 FROM generate_series(1, 10) i;
VACUUM ANALYZE act.subscription_rows, act.wide_marks, act.wide_classes;
