-- Tables. Only the extension's functions write them (see 90_grants.sql).

-- CACHE 1: concurrent mode relies on every nextval() returning more than the
-- last value any reader saw (docs/concurrency.md).
CREATE SEQUENCE act.events_id_seq AS bigint START 1 CACHE 1;

CREATE TABLE act.events (
  id      bigint PRIMARY KEY DEFAULT nextval('act.events_id_seq'),
  stream  text NOT NULL,
  version int NOT NULL,
  name    text NOT NULL,
  data    jsonb NOT NULL DEFAULT '{}',
  meta    jsonb NOT NULL DEFAULT '{}',
  pii     jsonb,
  created timestamptz NOT NULL DEFAULT now(),
  hash    bytea NOT NULL,
  CONSTRAINT events_stream_version_key UNIQUE (stream, version)
);
ALTER SEQUENCE act.events_id_seq OWNED BY act.events.id;
COMMENT ON TABLE act.events IS 'pg_act: the event log; ids are the global order, versions are 0-based per stream';
-- Few indexes on purpose: each one is paid by every commit.
CREATE INDEX events_snapshot_ix ON act.events (stream, id) WHERE name = '__snapshot__';
CREATE INDEX events_correlation_ix ON act.events ((meta ->> 'correlation'));
-- Idempotency keys (act.commit, meta.idempotency_key): only keyed events are
-- in it, so commits without a key pay the predicate alone.
CREATE INDEX events_idempotency_ix ON act.events (stream, (meta ->> 'idempotency_key')) WHERE meta ? 'idempotency_key';

-- The recorded predecessor hash of a stream whose head events were removed
-- by a windowed act.truncate: the chain of such a stream verifies against it.
CREATE TABLE act.stream_anchors (
  stream  text PRIMARY KEY,
  version int NOT NULL,
  prev    bytea NOT NULL
);
COMMENT ON TABLE act.stream_anchors IS 'pg_act: hash-chain anchors of streams truncated with a retention window';

-- act.subscriptions (a view, below) over the rows the drain writes.
CREATE TABLE act.subscription_rows (
  stream        text PRIMARY KEY,
  source        text,
  names         text[],
  at            bigint NOT NULL DEFAULT -1,
  retry         int NOT NULL DEFAULT -1,
  blocked       boolean NOT NULL DEFAULT false,
  error         text,
  leased_by     text,
  leased_until  timestamptz,
  priority      int NOT NULL DEFAULT 0,
  lane          text NOT NULL DEFAULT 'default',
  deferred_at   timestamptz,
  correlated_at bigint,
  class         int,    -- act.wide_classes: set for a source-less or pattern row, NULL for a literal source
  class_floor   bigint  -- the class's mark when the row joined it, where above the row's back-fill (see below)
) WITH (
  fillfactor = 70,  -- room for HOT updates: claims and acks rewrite rows all day
  -- A row that leaves the work set leaves its entries at the front of the
  -- work-set indexes, where every claim starts, until a vacuum removes them:
  -- vacuum after 2% of the rows have changed (2,000 at least), not 20%.
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_threshold = 2000
);
COMMENT ON TABLE act.subscription_rows IS 'pg_act: one row per reaction target stream (read act.subscriptions)';
-- The work set: only rows with pending work are in these indexes, so claim
-- costs the same with 1,000 or 1,000,000 subscriptions. One pair serves
-- claims across all lanes, the other claims of one lane. Their predicates
-- (sql/predicates/) are also the claim's (core/src/claim_plan.cpp embeds
-- them), so the planner can always prove the claim reads only these rows.
CREATE INDEX subscriptions_work_priority_ix ON act.subscription_rows (priority DESC, at, stream) WHERE
-- include: predicates/work_set.sql
;
CREATE INDEX subscriptions_work_at_ix ON act.subscription_rows (at, stream) WHERE
-- include: predicates/work_set.sql
;
CREATE INDEX subscriptions_work_lane_priority_ix ON act.subscription_rows (lane, priority DESC, at, stream) WHERE
-- include: predicates/work_set.sql
;
CREATE INDEX subscriptions_work_lane_at_ix ON act.subscription_rows (lane, at, stream) WHERE
-- include: predicates/work_set.sql
;
-- Static marking at commit: literal sources by lookup; source-less and
-- pattern rows through their classes (act.wide_classes). Which sources are
-- patterns is decided in one place, core IsPattern, which act._is_pattern
-- calls.
CREATE INDEX subscriptions_source_ix ON act.subscription_rows (source) WHERE source IS NOT NULL;
-- Claims find the wide rows with work class by class: rows whose watermark
-- is below their class's mark (docs/work-marks.md).
-- Within a class, rows are read priority level by priority level, each
-- level's rows below the mark as one index range.
CREATE INDEX subscriptions_class_lane_ix ON act.subscription_rows (class, lane, priority, at, stream) WHERE
-- include: predicates/class_rows.sql
;
CREATE INDEX subscriptions_class_ix ON act.subscription_rows (class, priority, at, stream) WHERE
-- include: predicates/class_rows.sql
;
-- act.query_streams pages in C collation whatever the database's collation.
CREATE INDEX subscriptions_stream_c_ix ON act.subscription_rows ((stream COLLATE "C"));
-- act.subscribe reports the highest watermark.
CREATE INDEX subscriptions_at_ix ON act.subscription_rows (at);

-- Wide subscriptions (NULL or pattern source) that share a source and names
-- have the same work: one class each. A commit matches classes, not
-- subscriptions, so it costs the same with 10 or 10,000 wide subscriptions.
-- Ids are taken under the registry lock (no sequence to dump); names are
-- compared as stored, so ["a","b"] and ["b","a"] are two classes.
CREATE TABLE act.wide_classes (
  id     int PRIMARY KEY,
  source text,
  names  text[]
);
COMMENT ON TABLE act.wide_classes IS 'pg_act: the distinct (source, names) of source-less and pattern subscriptions';

-- Work marks of wide classes, one row per class and committing backend: a
-- commit raises only its backend's row, so commits to different streams
-- never wait on a shared row. A wide row has work while its watermark is
-- below the greater of its stored mark and its class's highest mark, that
-- mark counting only above the row's class_floor: a mark the class reached
-- on events deleted (act.truncate) before the row joined is not the row's
-- work, and no fetch could reach it.
CREATE TABLE act.wide_marks (
  class   int NOT NULL,
  backend int NOT NULL,
  mark    bigint NOT NULL,
  PRIMARY KEY (class, backend)
);
COMMENT ON TABLE act.wide_marks IS 'pg_act: work marks of wide subscription classes, per committing backend';

CREATE VIEW act.subscriptions AS
SELECT r.stream, r.source, r.names, r.at, r.retry, r.blocked, r.error, r.leased_by, r.leased_until, r.priority,
       r.lane, r.deferred_at, greatest(r.correlated_at, w.mark) AS correlated_at
  FROM act.subscription_rows r
  LEFT JOIN LATERAL (SELECT max(m.mark) AS mark FROM act.wide_marks m WHERE m.class = r.class
                      HAVING max(m.mark) > coalesce(r.class_floor, -1)) w ON true;
COMMENT ON VIEW act.subscriptions IS 'pg_act: one row per reaction target stream: watermark, lease, work mark';

CREATE TABLE act.correlators (
  key          text PRIMARY KEY,
  at           bigint NOT NULL DEFAULT -1,
  leased_by    text,
  leased_until timestamptz
);
COMMENT ON TABLE act.correlators IS 'pg_act: correlate checkpoints and the correlator lease ('''' is the shared row)';
INSERT INTO act.correlators (key) VALUES ('');
