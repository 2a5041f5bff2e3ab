-- The same ten rows as commit_batch10.sql, as one plain INSERT (no concurrency check, no chain).
INSERT INTO plain_events (stream, version, name, data, meta, hash)
SELECT 'bench10-' || :client_id, nextval('plain_version_seq'), 'E', jsonb_build_object('i', i), '{"correlation": "bench"}',
       '\x0000000000000000000000000000000000000000000000000000000000000000'
  FROM generate_series(0, 9) i;
