-- No single row can stop the engine: every value that lands in an index has
-- a byte limit checked up front (22023 naming the field), so no row is too
-- large for its index entry (54000) and no claim or commit can fail on it
-- later. Limits: docs/operations.md.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.subscribe('[{"stream": "wide", "lane": "%s"}]')$$, repeat('l', 201)),
  '22023', 'subscriptions[0].lane takes 201 bytes: the limit is 200 bytes', 'a 201-byte lane');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.subscribe('[{"stream": "wide", "lane": "%s"}]')$$, repeat('l', 6000)),
  '22023', 'subscriptions[0].lane takes 6000 bytes: the limit is 200 bytes', 'a 6 KB lane (it used to stop every claim)');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.subscribe('[]', NULL, '{"key": "%s", "by": "w", "millis": 1000}')$$, repeat('k', 1001)),
  '22023', 'correlator.key takes 1001 bytes: the limit is 1000 bytes', 'a 1001-byte correlator key');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.commit('c', '[{"name": "A"}]', '{"correlation": "%s"}')$$, repeat('c', 1001)),
  '22023', 'meta.correlation for stream "c" takes 1001 bytes: the limit is 1000 bytes', 'a 1001-byte correlation');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.commit('c', '[{"name": "A"}]', '{"correlation": {"x": "%s"}}')$$, repeat('c', 6000)),
  '22023', 'meta.correlation for stream "c" takes 60__ bytes: the limit is 1000 bytes', 'a correlation object of 6 KB');
SELECT * FROM pg_temp.refused(format($$SELECT * FROM act.truncate('[{"stream": "c", "meta": {"correlation": "%s"}}]')$$, repeat('c', 1001)),
  '22023', 'targets[0].meta.correlation takes 1001 bytes: the limit is 1000 bytes', 'a truncate seed''s 1001-byte correlation');

-- At the limits everything works: subscribe, commit, claim, ack.
SELECT is((SELECT subscribed FROM act.subscribe(format('[{"stream": "%s", "lane": "%s"}]', repeat('s', 1000), repeat('l', 200))::jsonb)),
  1, 'a 1000-byte stream in a 200-byte lane subscribes');
SELECT is((SELECT count(*) FROM act.commit(repeat('t', 1000), format('[{"name": "%s"}]', repeat('n', 200))::jsonb,
                                           format('{"correlation": "%s"}', repeat('c', 1000))::jsonb)), 1::bigint,
  'a commit with the longest stream, event name and correlation');
SELECT is((SELECT count(*) FROM act.claim(1, 0, 'w', 1000, repeat('l', 200))), 1::bigint, 'claimed in its lane');
SELECT is((SELECT count(*) FROM act.claim(1, 0, 'w2', 1000)), 0::bigint, 'and across lanes nothing else is claimable');
SELECT is((SELECT count(*) FROM act.subscribe('[]', NULL, format('{"key": "%s", "by": "w", "millis": 1000}', repeat('k', 1000))::jsonb)),
  1::bigint, 'a 1000-byte correlator key');
SELECT is((SELECT name FROM act.truncate(format('[{"stream": "c", "meta": {"correlation": "%s"}}]', repeat('c', 1000))::jsonb)),
  '__tombstone__', 'a truncate seed with a 1000-byte correlation');

SELECT * FROM finish();
ROLLBACK;
