-- One bad input per line for raise sites no other suite names: each is
-- refused with its SQLSTATE and message, and nothing is written.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT count(*) FROM act.commit('e-1', '[{"name": "A"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "sub-1", "source": "e-1"}]');

SELECT * FROM pg_temp.refused($$SELECT * FROM act.truncate('[{"stream": "e-1", "before": 5}]')$$,
  '22023', 'targets[0].before must be a timestamp string', 'truncate: a numeric before');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.truncate('[{"stream": "e-1", "before": "2999-01-01", "max_id": "7"}]')$$,
  '22023', 'targets[0].max_id must be a number', 'truncate: a string max_id');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.truncate('[{"stream": "e-1", "before": "not a time"}]')$$,
  '22007', NULL, 'truncate: an unreadable before (invalid_datetime_format)');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.ack(NULL)$$, '22004', 'leases must not be null', 'ack: NULL leases');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.block(NULL)$$, '22004', 'leases must not be null', 'block: NULL leases');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.subscribe(NULL)$$, '22004', 'subscriptions must not be null',
  'subscribe: NULL subscriptions');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.subscribe('[]', NULL, '{"key": "", "by": "w", "millis": 10}')$$,
  '22023', 'correlator.key must not be empty', 'subscribe: an empty correlator key');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.claim(1, 0, '', 1000)$$, '22023', 'by must not be empty', 'claim: an empty by');
SELECT * FROM pg_temp.refused($$SELECT act.prioritize('["sub-1"]', NULL)$$, '22004', 'priority must not be null',
  'prioritize: NULL priority');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["e-1"]', '[]')$$, '22023', 'options must be a JSON object',
  'query_stats: options as an array');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('"e-1"')$$, '22023',
  'streams must be a JSON array of stream names or an object {"stream", "stream_exact"}', 'query_stats: streams as a string');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["e-1", 5]')$$, '22023',
  'streams must hold only stream names (JSON strings)', 'query_stats: a number among the names');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('{"stream": 5}')$$, '22023', 'streams.stream must be a string',
  'query_stats: a numeric stream pattern');

SELECT * FROM pg_temp.refused($$SELECT act.wait(NULL, 10)$$, '22004', 'after and timeout_ms must not be null', 'wait: NULL after');
SELECT * FROM pg_temp.refused($$SELECT act.wait(0, NULL)$$, '22004', 'after and timeout_ms must not be null', 'wait: NULL timeout');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_streams('["sub-1"]')$$, '22023', 'filter must be a JSON object',
  'query_streams: a list of names instead of a filter');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.truncate('[{"stream": "%s"}]')$$, repeat('s', 1001)),
  '22023', 'targets[0].stream must be 1 to 1000 bytes long', 'truncate: a 1001-byte stream');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.truncate('[{"stream": ""}]')$$,
  '22023', 'targets[0].stream must be 1 to 1000 bytes long', 'truncate: an empty stream');

SELECT * FROM finish();
ROLLBACK;
