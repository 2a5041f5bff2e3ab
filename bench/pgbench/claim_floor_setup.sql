-- The claim's floor: a plain table of the shape of act.subscription_rows with
-- :subscriptions rows, 10 of them with work as claim_setup.sql makes them, and
-- one partial index over the rows with work (pg_act keeps four such work-set
-- indexes), so a plain claim reads the rows with work and no others.
SET client_min_messages = warning;  -- no notice for the DROP of a table not there yet
DROP TABLE IF EXISTS plain_subscriptions;
CREATE TABLE plain_subscriptions (LIKE act.subscription_rows INCLUDING DEFAULTS) WITH (fillfactor = 70);
ALTER TABLE plain_subscriptions ADD PRIMARY KEY (stream);
CREATE INDEX ON plain_subscriptions (at, stream) WHERE at < correlated_at;
INSERT INTO plain_subscriptions (stream, source, at, correlated_at)
SELECT 'target-' || i, 'source-' || i, 5, CASE WHEN i % (:subscriptions / 10) = 0 THEN 9 ELSE 5 END
  FROM generate_series(1, :subscriptions) i;
VACUUM ANALYZE plain_subscriptions;
