-- What a database holds in the extension's tables, one line per table: rows
-- and a digest of them. Compared before and after a dump/restore or upgrade.
\set ON_ERROR_STOP 1
-- -v without_removal_records=true leaves out the removal records and the
-- id sequence: the upgrade to 0.3 writes a record for the entries already
-- missing (test/run-upgrade.sh checks it with act.verify_log).
\if :{?without_removal_records}
\else
\set without_removal_records false
\endif
SET TimeZone = 'UTC';
SELECT 'events', count(*), md5(string_agg(concat_ws(',', id, stream, version, name, data::text, meta::text,
         coalesce(pii::text, '-'), created, encode(hash, 'hex')), ';' ORDER BY id)) FROM act.events
 WHERE NOT (:without_removal_records AND stream = '__truncations__')
-- The stored mark is left out: the update to 0.2.1 folds wide marks into it.
-- act.subscriptions shows every row's effective work mark, however the
-- version at hand stores wide marks (per row before 0.2.1, per class since).
UNION ALL SELECT 'subscription_rows', count(*), md5(string_agg(concat_ws(',', stream, source, names, at, retry, blocked,
         error, leased_by, leased_until, priority, lane, deferred_at), ';' ORDER BY stream))
  FROM act.subscription_rows
UNION ALL SELECT 'subscriptions', count(*), md5(string_agg(s::text, ';' ORDER BY stream)) FROM act.subscriptions s
UNION ALL SELECT 'correlators', count(*), md5(string_agg(c::text, ';' ORDER BY key)) FROM act.correlators c
UNION ALL SELECT 'stream_anchors', count(*), md5(string_agg(a::text, ';' ORDER BY stream)) FROM act.stream_anchors a
UNION ALL SELECT 'sequence', last_value, is_called::text FROM act.events_id_seq WHERE NOT :without_removal_records;
