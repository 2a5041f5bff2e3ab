-- The same row as commit_single.sql, as a plain INSERT (no concurrency check, no chain).
INSERT INTO plain_events (stream, version, name, data, meta, hash)
VALUES ('bench-' || :client_id, nextval('plain_version_seq'), 'Incremented', '{"by": 1}', '{"correlation": "bench"}',
        '\x0000000000000000000000000000000000000000000000000000000000000000');
