-- :subscriptions rows, of which 10 have work (at < correlated_at).
TRUNCATE act.subscription_rows;
INSERT INTO act.subscription_rows (stream, source, at, correlated_at)
SELECT 'target-' || i, 'source-' || i, 5, CASE WHEN i % (:subscriptions / 10) = 0 THEN 9 ELSE 5 END
  FROM generate_series(1, :subscriptions) i;
VACUUM ANALYZE act.subscription_rows;
