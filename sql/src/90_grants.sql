-- Grants on the schema and the tables, and pg_dump registration. Each function's
-- grants are in its declaration (sql/api/); the roles in 001_roles.sql.

REVOKE ALL ON ALL TABLES IN SCHEMA act FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA act FROM PUBLIC;
GRANT USAGE ON SCHEMA act TO act_reader;
-- Reading the tables directly is allowed; writing them is not (append-only).
-- The pii column only for act_pii_reader (act.query returns it as NULL to others).
GRANT SELECT (id, stream, version, name, data, meta, created, hash) ON act.events TO act_reader;
GRANT SELECT (pii) ON act.events TO act_pii_reader;
GRANT SELECT ON act.subscriptions, act.subscription_rows, act.wide_classes, act.wide_marks, act.correlators,
  act.stream_anchors, act.log_state, act.log_tiles, act.log_entries, act.checkpoints, act.log_keys,
  act.log_removals, act.partitioning, act.event_tags
  TO act_reader;

SELECT pg_catalog.pg_extension_config_dump('act.events', '');
SELECT pg_catalog.pg_extension_config_dump('act.events_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('act.stream_anchors', '');
SELECT pg_catalog.pg_extension_config_dump('act.event_tags', '');
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
