-- The fixed schema (docs/reference.md): tables, columns in order, keys, indexes, functions.
BEGIN;
SELECT * FROM no_plan();

SELECT has_schema('act', 'schema act');
SELECT is(ARRAY(SELECT attname::text FROM pg_attribute WHERE attrelid = 'act.events'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum),
  ARRAY['id', 'stream', 'version', 'name', 'data', 'meta', 'pii', 'created', 'hash'], 'act.events columns in order');
SELECT col_type_is('act', 'events', 'id', 'bigint', 'ids are bigint');
SELECT col_is_pk('act', 'events', 'id', 'id is the primary key');
SELECT col_is_unique('act', 'events', ARRAY['stream', 'version'], 'unique (stream, version)');
SELECT is(ARRAY(SELECT attname::text FROM pg_attribute WHERE attrelid = 'act.subscriptions'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum),
  ARRAY['stream', 'source', 'names', 'at', 'retry', 'blocked', 'error', 'leased_by', 'leased_until', 'priority', 'lane',
        'deferred_at', 'correlated_at'], 'act.subscriptions columns in order');
SELECT col_is_pk('act', 'subscription_rows', 'stream', 'subscriptions keyed by stream');
SELECT col_type_is('act', 'subscriptions', 'at', 'bigint', 'watermarks are bigint');
SELECT col_default_is('act', 'subscription_rows', 'lane', 'default'::text, 'lane defaults to ''default''');
SELECT is(ARRAY(SELECT attname::text FROM pg_attribute WHERE attrelid = 'act.correlators'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum),
  ARRAY['key', 'at', 'leased_by', 'leased_until'], 'act.correlators columns in order');
SELECT results_eq('SELECT key, at FROM act.correlators', $$VALUES ('', -1::bigint)$$, 'the shared correlator row is present');
SELECT is_indexed('act', 'subscription_rows', ARRAY['priority', 'at', 'stream'], 'the work set (priority arm) is an index');
SELECT is_indexed('act', 'subscription_rows', ARRAY['lane', 'at', 'stream'], 'the work set of one lane is an index');
SELECT is_indexed('act', 'subscription_rows', ARRAY['at', 'stream'], 'the work set (fairness arm) is an index');
SELECT is((SELECT pg_get_expr(indpred, indrelid) FROM pg_index WHERE indexrelid = 'act.subscriptions_work_at_ix'::regclass),
  '((NOT blocked) AND (at < correlated_at))', 'work-set indexes hold only rows with work');

SELECT functions_are('act', ARRAY['commit', 'append', 'read', 'commit_by_key', 'forget_pii', 'query', 'version', 'max_event_id', 'horizon', 'wait', 'mode',
  'horizon_holders', 'truncate', 'query_stats', 'verify', 'event_hash', '_require_object', '_require_stream', '_require_known_keys', '_json_boolean', '_json_integer', '_json_of_type',
  '_require_regex',
  '_event_json', '_merge_shared_correlator', '_require_latest_head', '_inflight_holders', '_before_taking_ids', 'subscribe', 'claim', 'claim_events', 'status', 'lag', 'metrics', '_pending', '_work_counts', '_oldest_waiting', '_counters', 'reset_counters', '_fence_lock_tag', '_is_pattern', 'ack', 'block', 'defer', 'reset', 'unblock', 'release',
  'prioritize', 'query_streams', '_source_readers', 'widen', 'take_over', 'partition_of', 'set_partition', 'hosted_partition', '_require_hosted',
  'log_size', 'merkle_root', 'log_position', 'prove_inclusion', 'prove_consistency', 'log_entries', 'prove_stream', 'verify_log', 'verify_inclusion', 'verify_consistency', 'seal', '_seal_through', '_stream_proof_target',
  'checkpoint', 'add_checkpoint_signature', 'register_log_key', 'log_wait', '_seal_stop', 'log_removals', '_describe_removal',
  '_record_removal'], 'the functions of schema act');

SELECT is((SELECT cache_size FROM pg_sequences WHERE schemaname = 'act' AND sequencename = 'events_id_seq'), 1::bigint,
  'the id sequence caches nothing (concurrent mode relies on it)');

-- Restoring a dump inserts the shared correlator row again: it merges.
UPDATE act.correlators SET at = 42 WHERE key = '';
INSERT INTO act.correlators (key, at) VALUES ('', 7);
SELECT results_eq($$SELECT key, at FROM act.correlators$$, $$VALUES ('', 7::bigint)$$, 'a second insert of '''' merges into the row');
INSERT INTO act.correlators (key, at) VALUES ('other', 3);
SELECT is((SELECT count(*) FROM act.correlators), 2::bigint, 'other keys insert normally');

SELECT * FROM finish();
ROLLBACK;
