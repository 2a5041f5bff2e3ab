-- pg_act 0.2.6 -> 0.3.0.
-- - Removal records (docs/verifiable-log.md): act.truncate writes one for what
--   it deletes (act.log_removals, act.log_removals(), the stream
--   __truncations__); act.verify_log accounts for every missing entry by one.
--   The entries already missing when this script runs are accounted for by
--   one record marked before_upgrade (what it can and cannot prove: ibid.).
-- - act.status() gains seal_stopped and act.metrics() pg_act_log_seal_stopped:
--   sealing stops before an event whose hash is not 32 bytes, and says so.
-- - act.verify_inclusion and act.verify_consistency: RFC 9162 proof checks in SQL.
-- - Witnesses: act.register_log_key takes C2SP cosigner keys and
--   act.add_checkpoint_signature their cosignatures; act.checkpoint(NULL) is
--   22004 and the key file must be a regular file (C++ only).
-- - act.claim_events gains max_bytes (a byte budget per claimed row, 16 MB by
--   default) and wait_millis (finding nothing, the claim waits for a commit
--   and claims again): new trailing arguments, so a new signature.
-- - act.release(selector) drops leases and keeps watermarks; act.claim and
--   act.claim_events refuse leases above one hour (C++ only).
-- - act.query_stats with a limit walks the streams through the (stream,
--   version) index instead of reading the whole log (same results).
-- - act.truncate and act.forget_pii check the stream's partition again under
--   act.events' lock, which act.set_partition's conflicts with (act.subscribe
--   and act.widen do under the registry lock, in C++).
-- - act.commit and act.version pin search_path, as every owner-rights function.
-- - act.status().expired_leases and pg_act_expired_leases count no blocked
--   row (a blocked row keeps the lease it was blocked under).
-- - act.take_over(successor, former, keep_name): a subscription takes over
--   another's watermark, so a reaction target renamed or read from another
--   source goes on from where it stopped (docs/reactions.md).
-- - Tags and consistency boundaries (docs/dcb.md): events carry tags (the
--   table act.event_tags; a tagged event hashes in encoding version 2),
--   act.read(query, after, limit) and act.append(events, condition, meta).
-- - act.status and act.metrics count the work set by its indexes and find the
--   oldest waiting event without listing what every row waits for.
-- - act.query_streams' source_matches finds the rows that read a stream by
--   index (act._source_readers) instead of testing every row (same results).
-- - act.subscription_rows is vacuumed after 2% of its rows changed (2,000 at
--   least) instead of 20%: claims start where acked rows leave dead entries.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.3.0'" to load this file. \quit

-- include: src/58_removal_records.sql
SELECT pg_catalog.pg_extension_config_dump('act.log_removals', '');
GRANT SELECT ON act.log_removals TO act_reader;
REVOKE ALL ON act.log_removals FROM PUBLIC;

-- Removal records and why sealing stops (new), act.truncate writing them.
-- include: api/_describe_removal.sql
-- include: api/_record_removal.sql
-- include: api/log_removals.sql
-- include: api/_seal_stop.sql
-- include: api/truncate.sql

-- act.status and act.metrics count the work set by its indexes and look up
-- only the oldest waiting event (act._work_counts, act._oldest_waiting).
-- include: api/_work_counts.sql
-- include: api/_oldest_waiting.sql
-- act.status gains a column: a new result type, so the old function goes.
DROP FUNCTION act.status();
-- include: api/status.sql
-- include: api/metrics.sql

-- include: api/verify_inclusion.sql
-- include: api/verify_consistency.sql

-- Witnesses: the comments say which keys and lines the functions accept.
-- include: api/register_log_key.sql
-- include: api/add_checkpoint_signature.sql

-- include: api/release.sql

-- A subscription taking over another's watermark (new).
-- include: api/take_over.sql

-- act.claim_events with a byte budget and a wait: the old signature goes, calls by name
-- or position with the old arguments reach the new one through its default.
DROP FUNCTION act.claim_events(int, int, text, int, text, int, jsonb);
-- include: api/claim_events.sql

-- The strict option readers share one rule now.
-- include: api/_json_of_type.sql
-- include: api/_json_boolean.sql
-- include: api/_json_integer.sql
-- include: api/query_stats.sql
-- include: api/forget_pii.sql
-- include: api/commit.sql
-- include: api/version.sql

-- Tags and consistency boundaries.
-- include: src/10_event_tags.sql
SELECT pg_catalog.pg_extension_config_dump('act.event_tags', '');
GRANT SELECT ON act.event_tags TO act_reader;
REVOKE ALL ON act.event_tags FROM PUBLIC;
-- include: api/read.sql
-- include: api/append.sql

-- The readers of a stream by index.
-- include: src/82_source_readers.sql
-- include: api/_source_readers.sql

-- Vacuum the subscription rows sooner (why: src/00_tables.sql).
ALTER TABLE act.subscription_rows SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 2000);

-- The entries whose events are gone by now (deleted by act.truncate before
-- removal records existed, or otherwise): one record accounts for them.
DO $upgrade$
DECLARE
  missing bigint[];
BEGIN
  SELECT array_agg(x.id ORDER BY x.id) INTO missing
    FROM act.log_entries b, unnest(b.ids) AS x(id)
   WHERE NOT EXISTS (SELECT 1 FROM act.events e WHERE e.id = x.id);
  IF missing IS NOT NULL THEN
    PERFORM act._before_taking_ids();
    PERFORM act._record_removal(missing, true);
  END IF;
END $upgrade$;
