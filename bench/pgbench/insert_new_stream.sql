-- The same row as commit_new_stream.sql, as a plain INSERT: version 0 of a new stream.
INSERT INTO plain_events (stream, version, name, data, meta, hash)
VALUES ('new-' || nextval('sweep_stream_seq'), 0, 'Incremented', '{"by": 1}', '{"correlation": "bench"}',
        '\x0000000000000000000000000000000000000000000000000000000000000000');
