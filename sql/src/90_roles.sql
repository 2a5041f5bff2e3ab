-- Roles, grants and pg_dump registration.

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_reader') THEN CREATE ROLE act_reader NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_writer') THEN CREATE ROLE act_writer NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_worker') THEN CREATE ROLE act_worker NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_admin') THEN CREATE ROLE act_admin NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_pii_reader') THEN CREATE ROLE act_pii_reader NOLOGIN; END IF;
  -- Each role includes the one before it.
  IF NOT pg_has_role('act_writer', 'act_reader', 'MEMBER') THEN GRANT act_reader TO act_writer; END IF;
  IF NOT pg_has_role('act_worker', 'act_writer', 'MEMBER') THEN GRANT act_writer TO act_worker; END IF;
  IF NOT pg_has_role('act_admin', 'act_worker', 'MEMBER') THEN GRANT act_worker TO act_admin; END IF;
  -- Personal data is its own grant: no other role includes this one.
  IF NOT pg_has_role('act_pii_reader', 'act_reader', 'MEMBER') THEN GRANT act_reader TO act_pii_reader; END IF;
END $$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA act FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA act FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA act FROM PUBLIC;
GRANT USAGE ON SCHEMA act TO act_reader;
-- Reading the tables directly is allowed; writing them is not (append-only).
-- The pii column only for act_pii_reader (act.query returns it as NULL to others).
GRANT SELECT (id, stream, version, name, data, meta, created, hash) ON act.events TO act_reader;
GRANT SELECT (pii) ON act.events TO act_pii_reader;
GRANT SELECT ON act.subscriptions, act.subscription_rows, act.wide_classes, act.wide_marks, act.correlators,
  act.stream_anchors, act.log_state, act.log_tiles, act.log_entries, act.checkpoints, act.log_keys,
  act.log_removals, act.partitioning
  TO act_reader;

GRANT EXECUTE ON FUNCTION
  act.query(text, bigint, bigint, text[], int, boolean, boolean, timestamptz, timestamptz, text, boolean),
  act.version(text), act.commit_by_key(text, text), act.partition_of(text, int), act.hosted_partition(), act.max_event_id(), act.horizon(), act.wait(bigint, int), act.mode(),
  act.horizon_holders(), act.query_stats(jsonb, jsonb), act.verify(text),
  act.event_hash(bytea, text, int, text, jsonb, jsonb, timestamptz), act.query_streams(jsonb, text, int),
  act.status(), act.lag(text, int), act.metrics(),
  act.log_size(), act.merkle_root(bigint), act.log_position(bigint), act.prove_inclusion(bigint, bigint),
  act.prove_consistency(bigint, bigint), act.log_entries(bigint, bigint), act.prove_stream(text, bigint),
  act.verify_log(bigint, bigint), act.log_wait(bigint, int), act.log_removals(),
  act.verify_inclusion(bytea, bigint, bigint, bytea[], bytea), act.verify_consistency(bigint, bytea, bigint, bytea, bytea[])
  TO act_reader;
GRANT EXECUTE ON FUNCTION act.commit(text, jsonb, jsonb, bigint), act.forget_pii(text) TO act_writer;
GRANT EXECUTE ON FUNCTION act.subscribe(jsonb, bigint, jsonb), act.widen(text, jsonb), act.claim(int, int, text, int, text), act.ack(jsonb),
  act.block(jsonb), act.claim_events(int, int, text, int, text, int, jsonb, int) TO act_worker;
GRANT EXECUTE ON FUNCTION act.truncate(jsonb), act.defer(jsonb, timestamptz), act.reset(jsonb), act.unblock(jsonb),
  act.release(jsonb), act.prioritize(jsonb, int), act.reset_counters(), act.seal(), act.set_partition(int, int),
  act.checkpoint(), act.checkpoint(boolean), act.add_checkpoint_signature(text), act.register_log_key(text) TO act_admin;

SELECT pg_catalog.pg_extension_config_dump('act.events', '');
SELECT pg_catalog.pg_extension_config_dump('act.events_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('act.stream_anchors', '');
SELECT pg_catalog.pg_extension_config_dump('act.subscription_rows', '');
SELECT pg_catalog.pg_extension_config_dump('act.wide_classes', '');
SELECT pg_catalog.pg_extension_config_dump('act.wide_marks', '');
SELECT pg_catalog.pg_extension_config_dump('act.correlators', '');
SELECT pg_catalog.pg_extension_config_dump('act.log_state', '');
SELECT pg_catalog.pg_extension_config_dump('act.log_tiles', '');
SELECT pg_catalog.pg_extension_config_dump('act.log_entries', '');
SELECT pg_catalog.pg_extension_config_dump('act.checkpoints', '');
SELECT pg_catalog.pg_extension_config_dump('act.log_keys', '');
SELECT pg_catalog.pg_extension_config_dump('act.log_removals', '');
