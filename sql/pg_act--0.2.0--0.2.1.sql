-- pg_act 0.2.0 -> 0.2.1.
-- - Cumulative counters in concurrent mode (commits, events, conflicts,
--   claims, retries, acks, blocks), kept in shared memory per database:
--   act._counters() behind act.metrics(), act.reset_counters() for act_admin.
-- - Wide subscriptions (NULL or pattern source) are marked per class of
--   (source, names), act.wide_classes: a commit writes one act.wide_marks row
--   per matching class, and claims read rows with work class by class
--   instead of folding every wide mark into act.subscription_rows first.
--   The update folds each row's wide mark into its stored mark.
-- - act.claim and act.claim_events run without JIT.
-- - act.verify runs without parallel workers (they cost one stream's check
--   40 ms instead of 0.2 ms).
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.2.1'" to load this file. \quit

-- The registry lock first, in the order commits take it (the view, then
-- its table): a commit in flight finishes before the update starts instead
-- of deadlocking with it. Rows and marks moved below must be read on a
-- fresh snapshot, so READ COMMITTED only.
DO $$
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'update pg_act to 0.2.1 under READ COMMITTED, not %', current_setting('transaction_isolation')
      USING ERRCODE = 'invalid_transaction_state';
  END IF;
END $$;
LOCK TABLE act.subscriptions IN ACCESS EXCLUSIVE MODE;
LOCK TABLE act.subscription_rows IN ACCESS EXCLUSIVE MODE;

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

-- Wide classes: every existing wide row joins the class of its (source, names).
ALTER TABLE act.subscription_rows ADD COLUMN class int, ADD COLUMN class_floor bigint;
CREATE TABLE act.wide_classes (
  id     int PRIMARY KEY,
  source text,
  names  text[]
);
COMMENT ON TABLE act.wide_classes IS 'pg_act: the distinct (source, names) of source-less and pattern subscriptions';
INSERT INTO act.wide_classes (id, source, names)
SELECT row_number() OVER (ORDER BY d.source COLLATE "C" NULLS FIRST, d.names::text COLLATE "C" NULLS FIRST), d.source, d.names
  FROM (SELECT DISTINCT r.source, r.names FROM act.subscription_rows r
         WHERE r.source IS NULL OR act._is_pattern(r.source)) d;
UPDATE act.subscription_rows r SET class = c.id FROM act.wide_classes c
 WHERE (r.source IS NULL OR act._is_pattern(r.source))
   AND c.source IS NOT DISTINCT FROM r.source AND c.names IS NOT DISTINCT FROM r.names;

-- Each row's wide mark goes into its stored mark (what a claim's fold did),
-- so every row keeps its work mark exactly; classes start without marks and
-- commits from now on raise them.
ALTER TABLE act.wide_marks RENAME TO wide_marks_by_row;
ALTER INDEX act.wide_marks_pkey RENAME TO wide_marks_by_row_pkey;
UPDATE act.subscription_rows r SET correlated_at = w.mark
  FROM (SELECT m.stream, max(m.mark) AS mark FROM act.wide_marks_by_row m GROUP BY m.stream) w
 WHERE r.stream = w.stream AND (r.correlated_at IS NULL OR r.correlated_at < w.mark);
CREATE TABLE act.wide_marks (
  class   int NOT NULL,
  backend int NOT NULL,
  mark    bigint NOT NULL,
  PRIMARY KEY (class, backend)
);
COMMENT ON TABLE act.wide_marks IS 'pg_act: work marks of wide subscription classes, per committing backend';

CREATE OR REPLACE VIEW act.subscriptions AS
SELECT r.stream, r.source, r.names, r.at, r.retry, r.blocked, r.error, r.leased_by, r.leased_until, r.priority,
       r.lane, r.deferred_at, greatest(r.correlated_at, w.mark) AS correlated_at
  FROM act.subscription_rows r
  LEFT JOIN LATERAL (SELECT max(m.mark) AS mark FROM act.wide_marks m WHERE m.class = r.class
                      HAVING max(m.mark) > coalesce(r.class_floor, -1)) w ON true;


CREATE OR REPLACE FUNCTION act._pending() RETURNS TABLE(stream text, lane text, at bigint, work_mark bigint, blocked boolean,
  error text, leased_by text, leased_until timestamptz, retry int, priority int, waiting_id bigint, waiting_since timestamptz)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
BEGIN ATOMIC
  WITH candidates AS (
    SELECT r.* FROM act.subscription_rows r WHERE NOT r.blocked AND r.at < r.correlated_at
    UNION
    SELECT r.* FROM act.subscription_rows r WHERE r.blocked
    UNION
    SELECT r.* FROM (SELECT m.class, max(m.mark) AS mark FROM act.wide_marks m GROUP BY m.class) k
      JOIN act.subscription_rows r ON r.class = k.class AND NOT r.blocked AND r.at < k.mark
                                   AND k.mark > coalesce(r.class_floor, -1)
  ), marked AS (
    SELECT c.*, greatest(c.correlated_at, (SELECT max(m.mark) FROM act.wide_marks m WHERE m.class = c.class
                                            HAVING max(m.mark) > coalesce(c.class_floor, -1))) AS mark,
           c.source IS NOT NULL AND NOT act._is_pattern(c.source) AS literal
      FROM candidates c
  ), waiting AS (
    SELECT m.*,
           CASE WHEN m.literal THEN
             (SELECT e.id FROM act.events e
               WHERE e.stream = m.source
                 AND e.version >= coalesce((SELECT p.version + 1 FROM act.events p WHERE p.id = m.at AND p.stream = m.source), 0)
                 AND e.id > m.at
               ORDER BY e.version LIMIT 1)
           ELSE (SELECT e.id FROM act.events e WHERE e.id > m.at ORDER BY e.id LIMIT 1) END AS waiting_id
      FROM marked m
  )
  SELECT w.stream, w.lane, w.at, w.mark, w.blocked, w.error, w.leased_by, w.leased_until, w.retry, w.priority,
         w.waiting_id, (SELECT e.created FROM act.events e WHERE e.id = w.waiting_id)
    FROM waiting w
   WHERE w.blocked OR w.at < w.mark;
END;


-- Out of the extension first: that also takes it off the pg_dump list.
ALTER EXTENSION pg_act DROP TABLE act.wide_marks_by_row;
DROP TABLE act.wide_marks_by_row;
DROP INDEX act.subscriptions_wide_source_ix;
CREATE INDEX subscriptions_class_lane_ix ON act.subscription_rows (class, lane, priority, at, stream)
  WHERE class IS NOT NULL AND NOT blocked;
CREATE INDEX subscriptions_class_ix ON act.subscription_rows (class, priority, at, stream)
  WHERE class IS NOT NULL AND NOT blocked;

GRANT SELECT ON act.wide_classes, act.wide_marks TO act_reader;
SELECT pg_catalog.pg_extension_config_dump('act.wide_classes', '');
SELECT pg_catalog.pg_extension_config_dump('act.wide_marks', '');

ALTER FUNCTION act.verify(text) SET max_parallel_workers_per_gather = 0;

-- The claim's class part has pessimistic estimates: JIT would compile for
-- seconds what runs in a millisecond.
ALTER FUNCTION act.claim(int, int, text, int, text) SET jit = off;
ALTER FUNCTION act.claim_events(int, int, text, int, text, int, jsonb) SET jit = off;
