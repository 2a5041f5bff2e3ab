-- Hostile input: huge and deep payloads, invalid UTF-8, NUL, extreme stream
-- names, slow regexes under statement_timeout, SQL metacharacters in every
-- text argument, extreme numbers. Every refused call leaves the tables as
-- they were.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT count(*) FROM act.commit('seed', '[{"name": "Seeded"}]');

-- 1. Payload sizes: 1 MB is an ordinary event; a commit over 16 MiB (events
--    and meta together) is refused before any work, whatever its shape, and
--    so is any other jsonb argument over 16 MiB. (Large strings are built
--    from 1 kB pieces: repeat() of one character is slow.)
SELECT is((SELECT octet_length(data ->> 'blob') FROM act.commit('mb',
  jsonb_build_array(jsonb_build_object('name', 'Big', 'data', jsonb_build_object('blob', repeat(repeat('x', 1024), 1024)))))),
  1024 * 1024, 'a 1 MB event is committed');
SELECT is((SELECT octet_length(data ->> 'blob') FROM act.query('mb')), 1024 * 1024, 'and read back whole');
SELECT is((SELECT valid FROM act.verify('mb')), true, 'and its hash verifies');
SELECT pg_temp.refused($$SELECT * FROM act.commit('huge',
  jsonb_build_array(jsonb_build_object('name', 'Huge', 'data', jsonb_build_object('blob', repeat(repeat('x', 1024), 100 * 1024)))))$$,
  '22023', 'events and meta for stream "huge" take 1048576__ bytes: the limit of one commit is 16777216 bytes',
  'a 100 MB event');
SELECT pg_temp.refused($$SELECT * FROM act.commit('many',
  (SELECT jsonb_agg(jsonb_build_object('name', 'Part', 'data', jsonb_build_object('blob', repeat(repeat('x', 1024), 1024))))
     FROM generate_series(1, 17)))$$,
  '22023', 'events and meta for stream "many" take 178_____ bytes: the limit of one commit is 16777216 bytes',
  '17 events of 1 MB: the limit is per commit');
SELECT pg_temp.refused($$SELECT * FROM act.commit('fat-meta', '[{"name": "A"}]',
  jsonb_build_object('blob', repeat(repeat('x', 1024), 17 * 1024)))$$, '22023', NULL, '17 MB of meta');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe(jsonb_build_array(jsonb_build_object('stream', 's',
  'junk', repeat(repeat('x', 1024), 17 * 1024))))$$, '22023', 'subscriptions takes 178_____ bytes: the limit is 16777216 bytes',
  'a 17 MB subscriptions argument');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe('[]', NULL, jsonb_build_object('key', 'k', 'by', 'w', 'millis', 1,
  'junk', repeat(repeat('x', 1024), 17 * 1024)))$$, '22023', 'correlator takes %', 'a 17 MB correlator');
SELECT pg_temp.refused($$SELECT * FROM act.ack(jsonb_build_array(jsonb_build_object('stream', 's', 'by', 'w', 'at', 1,
  'junk', repeat(repeat('x', 1024), 17 * 1024))))$$, '22023', 'leases takes %', 'a 17 MB leases argument');
SELECT pg_temp.refused($$SELECT act.reset(jsonb_build_object('lane', repeat(repeat('x', 1024), 17 * 1024)))$$,
  '22023', 'selector takes %', 'a 17 MB selector');
SELECT pg_temp.refused($$SELECT * FROM act.query_streams(jsonb_build_object('lane', repeat(repeat('x', 1024), 17 * 1024)))$$,
  '22023', 'filter takes %', 'a 17 MB filter');

-- 2. Nesting: 10,000 levels are stored, hashed and read like any payload;
--    1,000,000 levels stop in Postgres's parser with its own clear error.
SELECT is((SELECT version FROM act.commit('deep', ('[{"name": "Deep", "data": {"x": ' || repeat('[', 10000) || repeat(']', 10000)
  || '}}]')::jsonb, ('{"m": ' || repeat('{"a": ', 10000) || '1' || repeat('}', 10000) || '}')::jsonb)), 0,
  'data and meta nested 10,000 deep are committed');
SELECT is((SELECT octet_length(data::text) FROM act.query('deep')), 20007, 'and read back whole');
SELECT is((SELECT valid FROM act.verify('deep')), true, 'and verify');
SELECT is((SELECT count(*) FROM act.query_stats('["deep"]')), 1::bigint, 'act.query_stats renders them');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe(('[{"stream": "deep-sub", "junk": ' || repeat('[', 10000) || repeat(']', 10000)
  || '}]')::jsonb)$$, '22023', 'subscriptions[0]: unknown key "junk"%', 'a subscription with a 10,000-deep extra key');
SELECT pg_temp.refused($$SELECT * FROM act.commit('deeper', ('[{"name": "D", "data": {"x": ' || repeat('[', 1000000)
  || repeat(']', 1000000) || '}}]')::jsonb)$$, '54001', 'stack depth limit exceeded', '1,000,000 levels');

-- 3. Invalid UTF-8 and NUL never reach the functions: Postgres refuses them
--    while building the arguments.
SELECT pg_temp.refused($$SELECT * FROM act.commit(convert_from('\x6f72ff'::bytea, 'UTF8'), '[{"name": "A"}]')$$,
  '22021', 'invalid byte sequence for encoding "UTF8": 0xff', 'an invalid byte in a stream name');
SELECT pg_temp.refused($$SELECT * FROM act.commit('s', jsonb_build_array(jsonb_build_object('name',
  convert_from('\xc0af'::bytea, 'UTF8'))))$$, '22021', NULL, 'an overlong encoding in an event name');
SELECT pg_temp.refused($$SELECT * FROM act.commit('s', convert_from('\x5b7b226e616d65223a2022eda080227d5d'::bytea,
  'UTF8')::jsonb)$$, '22021', NULL, 'an encoded surrogate in the events text');
SELECT pg_temp.refused($$SELECT * FROM act.commit('s', '[{"name": "A", "data": {"k": "\ud800"}}]')$$, '22P02', NULL,
  'a lone surrogate escape in data');
SELECT pg_temp.refused($$SELECT * FROM act.commit('s', '[{"name": "A", "data": {"k": "a\u0000b"}}]')$$, '22P05',
  'unsupported Unicode escape sequence', 'NUL in data');
SELECT pg_temp.refused($$SELECT * FROM act.commit('s', '[{"name": "A"}]', '{"k": "\u0000"}')$$, '22P05', NULL, 'NUL in meta');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe('[{"stream": "s\u0000"}]')$$, '22P05', NULL, 'NUL in a subscription');
SELECT pg_temp.refused($$SELECT * FROM act.commit(convert_from('\x7300'::bytea, 'UTF8'), '[{"name": "A"}]')$$,
  '22021', NULL, 'NUL in a stream name');
SELECT pg_temp.refused($$SELECT * FROM act.claim(1, 0, 'w' || chr(0), 1000)$$, '54000', NULL, 'chr(0) in a worker name');
SELECT is((SELECT stream FROM act.commit('ストリーム-😀-' || chr(8238) || '-ﬁ', '[{"name": "Ünïcødé"}]')),
  'ストリーム-😀-' || chr(8238) || '-ﬁ', 'valid multi-byte names are stored as given');
SELECT is((SELECT name FROM act.query('ストリーム-😀-' || chr(8238) || '-ﬁ')), 'Ünïcødé', 'and read back by exact name');

-- 4. Stream names of 0, 1,000 and 10,000 bytes.
SELECT pg_temp.refused($$SELECT * FROM act.commit('', '[{"name": "A"}]')$$, '22023', 'stream must not be empty', '0 bytes');
SELECT is((SELECT version FROM act.commit(repeat('k', 1000), '[{"name": "A"}]')), 0, '1,000 bytes is committed');
SELECT pg_temp.refused(format($$SELECT * FROM act.commit(%L, '[{"name": "A"}]')$$, repeat('k', 10000)), '22023',
  'stream "' || repeat('k', 200) || '..." (10000 bytes) is longer than 1000 bytes', '10,000 bytes (the message quotes 200)');
SELECT pg_temp.refused(format($$SELECT * FROM act.commit(%L, '[{"name": "A"}]')$$, repeat('€', 3334)), '22023',
  'stream "' || repeat('€', 66) || '..." (10002 bytes) is longer than 1000 bytes',
  '10,002 bytes of 3-byte characters: the message is cut on a character boundary');
SELECT pg_temp.refused(format($$SELECT * FROM act.subscribe('[{"stream": "%s"}]')$$, repeat('k', 10000)), '22023',
  'subscriptions[0].stream "k%(10000 bytes) is longer than 1000 bytes', '10,000 bytes as a subscription');
SELECT pg_temp.refused(format($$SELECT * FROM act.subscribe('[{"stream": "s", "source": "%s"}]')$$, repeat('k', 10000)),
  '22023', NULL, '10,000 bytes as a source');
SELECT pg_temp.refused(format($$SELECT * FROM act.ack('[{"stream": "%s", "by": "w", "at": 1}]')$$, repeat('k', 10000)),
  '22023', NULL, '10,000 bytes in a lease');
SELECT pg_temp.refused(format($$SELECT * FROM act.truncate('[{"stream": "%s"}]')$$, repeat('k', 10000)), '22023', NULL,
  '10,000 bytes as a truncate target');
SELECT pg_temp.refused($$SELECT * FROM act.truncate('[{"stream": ""}]')$$, '22023', NULL, '0 bytes as a truncate target');
SELECT is(act.version(repeat('k', 10000)), -1, 'reading a 10,000-byte name finds nothing');
SELECT is((SELECT count(*) FROM act.query(repeat('k', 10000))), 0::bigint, 'act.query too');
SELECT is((SELECT count(*) FROM act.verify(repeat('k', 10000))), 0::bigint, 'act.verify too');
SELECT is((SELECT subscribed FROM act.subscribe(format('[{"stream": "%s", "source": "%s", "lane": "long"}]', repeat('t', 1000),
  repeat('k', 1000))::jsonb)), 1, 'a 1,000-byte subscription with a 1,000-byte source');
SELECT is((SELECT stream FROM act.claim(0, 1, 'w-long', 60000, 'long')), repeat('t', 1000), 'is claimed (back-filled)');
SELECT is((SELECT at FROM act.ack(format('[{"stream": "%s", "by": "w-long", "at": 5}]', repeat('t', 1000))::jsonb)), 5::bigint,
  'and acknowledged');

-- 5. Patterns built to be slow stop at statement_timeout with SQLSTATE
--    57014 and leave nothing half-done. A backreference pattern backtracks
--    over every split of an odd-length run of a's; a nested bounded
--    repetition is slow to compile.
SELECT count(*) FROM act.commit(repeat('a', 997), '[{"name": "A"}]');
INSERT INTO act.wide_classes (id, source) VALUES (1000, '^(a*)(a*)(a*)\1\2\3$');
INSERT INTO act.subscription_rows (stream, source, class) VALUES (repeat('a', 995), '^(a*)(a*)(a*)\1\2\3$', 1000);
CREATE TEMP TABLE slow (description text, outcome text);
-- Records the outcome of one statement: a statement_timeout covers the
-- call alone, not the assertions about it.
CREATE FUNCTION pg_temp.record(description text, statement text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO slow VALUES (description, pg_temp.outcome(statement))
$$;
CREATE TEMP TABLE before_slow AS SELECT pg_temp.state() AS state;
SET statement_timeout = '100ms';
SELECT pg_temp.record('act.query', $$SELECT * FROM act.query('^(a*)(a*)(a*)\1\2\3$', stream_exact => false)$$);
SELECT pg_temp.record('act.subscribe (the back-fill of a new row)',
  $$SELECT * FROM act.subscribe('[{"stream": "slow", "source": "^(a*)(a*)(a*)\\1\\2\\3$"}]')$$);
SELECT pg_temp.record('act.commit (marking a subscription with a slow source)',
  $$SELECT * FROM act.commit(repeat('a', 993), '[{"name": "A"}]')$$);
SELECT pg_temp.record('act.query_streams', $$SELECT * FROM act.query_streams('{"stream": "^(a*)(a*)(a*)\\1\\2\\3$"}')$$);
SELECT pg_temp.record('act.reset', $$SELECT act.reset('{"stream": "^(a*)(a*)(a*)\\1\\2\\3$"}')$$);
SELECT pg_temp.record('act.query_stats',
  $$SELECT * FROM act.query_stats('{"stream": "^(a*)(a*)(a*)\\1\\2\\3$", "stream_exact": false}')$$);
SELECT pg_temp.record('act.subscribe (a source slow to compile)',
  $$SELECT * FROM act.subscribe('[{"stream": "slow", "source": "((((a{1,100}){1,100}){1,100}){1,100})"}]')$$);
RESET statement_timeout;
SELECT is(outcome, '57014: canceling statement due to statement timeout', 'a slow pattern in ' || description)
  FROM slow ORDER BY description;
SELECT is(pg_temp.state(), (SELECT state FROM before_slow), 'the cancelled calls wrote nothing');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe('[{"stream": "slow", "source": "((((a{1,100}){1,100}){1,100}){1,100})"}]')$$,
  '2201B', '%regular expression is too complex', 'without a timeout, the pattern slow to compile is refused as too complex');
SELECT is((SELECT count(*) FROM act.commit('b-stream', '[{"name": "A"}]')), 1::bigint,
  'after the cancels, commits run (a stream the slow source rejects at once)');

-- 6. SQL metacharacters in every text argument are data, never SQL.
CREATE TEMP TABLE m AS SELECT $m$x'y"z\w;--/*$1$$%s%n_?*()[]{}|^.+$m$ || chr(10) || ''');DROP TABLE act.events;--' AS v,
  $m$o'brien"; DROP SCHEMA act CASCADE; -- %s$m$ AS literal;  -- no regex metacharacter: a literal source
SELECT is((SELECT stream || '|' || name || '|' || (data ->> 'k') || '|' || (meta ->> 'correlation') || '|' || (pii ->> 'p')
             FROM act.commit((SELECT v FROM m), jsonb_build_array(jsonb_build_object('name', (SELECT v FROM m),
               'data', jsonb_build_object('k', (SELECT v FROM m)), 'pii', jsonb_build_object('p', (SELECT v FROM m)))),
               jsonb_build_object('correlation', (SELECT v FROM m)))),
  (SELECT v || '|' || v || '|' || v || '|' || v || '|' || v FROM m), 'commit stores stream, name, data, meta and pii as given');
SELECT is(act.version((SELECT v FROM m)), 0, 'act.version');
SELECT is((SELECT count(*) FROM act.query((SELECT v FROM m), names => ARRAY[(SELECT v FROM m)],
  correlation => (SELECT v FROM m))), 1::bigint, 'act.query by stream, names and correlation');
SELECT is((SELECT valid FROM act.verify((SELECT v FROM m))), true, 'act.verify');
SELECT is((SELECT act.event_hash('\x0000000000000000000000000000000000000000000000000000000000000000', stream, version, name,
  data, meta, created) FROM act.events WHERE stream = (SELECT v FROM m)), (SELECT hash FROM act.events WHERE stream = (SELECT v FROM m)),
  'act.event_hash over those fields equals the hash the commit stored');
SELECT is((SELECT count FROM act.query_stats(jsonb_build_array((SELECT v FROM m)),
  jsonb_build_object('count', true, 'exclude', jsonb_build_array('x' || (SELECT v FROM m)), 'after', (SELECT v FROM m) || '''')
  )), NULL, 'act.query_stats with a quote-laden after (nothing after it)');
SELECT is((SELECT count FROM act.query_stats(jsonb_build_array((SELECT v FROM m)),
  jsonb_build_object('count', true, 'exclude', jsonb_build_array('x' || (SELECT v FROM m))))), 1::bigint,
  'act.query_stats by name with excluded names');
SELECT is(act.forget_pii((SELECT v FROM m)), 1::bigint, 'act.forget_pii');
SELECT throws_ok(format('SELECT * FROM act.commit(%L, %L, %L, 7)', (SELECT v FROM m), '[{"name": "A"}]', '{}'), '40001',
  format('concurrency conflict on stream "%s": expected version 7, actual version 0', (SELECT v FROM m)),
  'an error message carries the name verbatim (no format directive is interpreted)');
SELECT is((SELECT subscribed FROM act.subscribe(jsonb_build_array(jsonb_build_object('stream', (SELECT v FROM m),
  'source', (SELECT literal FROM m), 'names', jsonb_build_array((SELECT v FROM m)), 'lane', (SELECT v FROM m))),
  NULL, jsonb_build_object('key', (SELECT v FROM m), 'by', (SELECT v FROM m), 'millis', 60000))), 1,
  'act.subscribe with such stream, source, names, lane and correlator');
SELECT is((SELECT source FROM act.subscriptions WHERE stream = (SELECT v FROM m)), (SELECT literal FROM m), 'the source is stored as given');
SELECT is((SELECT leased_by FROM act.correlators WHERE key = (SELECT v FROM m)), (SELECT v FROM m), 'the correlator key and holder too');
SELECT is((SELECT count(*) FROM act.commit((SELECT literal FROM m), jsonb_build_array(jsonb_build_object('name', (SELECT v FROM m))))),
  1::bigint, 'a commit to the literal source');
SELECT is((SELECT stream FROM act.claim(1, 0, (SELECT v FROM m), 60000, (SELECT v FROM m))), (SELECT v FROM m),
  'act.claim by such a worker in such a lane gets the marked subscription');
SELECT is((SELECT count(*) FROM act.block(jsonb_build_array(jsonb_build_object('stream', (SELECT v FROM m), 'by', (SELECT v FROM m),
  'error', (SELECT v FROM m))))), 1::bigint, 'act.block');
SELECT is((SELECT error FROM act.subscriptions WHERE stream = (SELECT v FROM m)), (SELECT v FROM m), 'the error is stored as given');
SELECT is(act.unblock(jsonb_build_object('source', (SELECT literal FROM m), 'source_exact', true)), 1, 'act.unblock by exact source');
SELECT is(act.prioritize(jsonb_build_array((SELECT v FROM m)), 5), 1, 'act.prioritize by name');
SELECT is(act.defer(jsonb_build_object('stream', (SELECT v FROM m), 'stream_exact', true, 'lane', (SELECT v FROM m)),
  now() + interval '1 minute'), 1, 'act.defer by exact stream and lane');
SELECT is(act.reset(jsonb_build_object('lane', (SELECT v FROM m))), 1, 'act.reset by lane');
SELECT is((SELECT count(*) FROM act.query_streams(jsonb_build_object('lane', (SELECT v FROM m)),
  after => (SELECT left(v, 3) FROM m))), 1::bigint, 'act.query_streams by lane, after a quote-laden name');
SELECT is((SELECT count(*) FROM act.truncate(jsonb_build_array(jsonb_build_object('stream', (SELECT v FROM m),
  'snapshot', jsonb_build_object('k', (SELECT v FROM m)), 'meta', jsonb_build_object('c', (SELECT v FROM m)))))), 1::bigint,
  'act.truncate');
SELECT is((SELECT valid FROM act.verify((SELECT v FROM m))), true, 'the seeded stream verifies');
SELECT ok(to_regclass('act.events') IS NOT NULL AND (SELECT count(*) FROM act.events) > 5, 'act.events is still there');

-- 7. Negative and huge numbers.
SELECT pg_temp.refused($$SELECT * FROM act.commit('n', '[{"name": "A"}]', '{}', -2147483648)$$, '22023',
  'expected_version for stream "n" must be -1 to 2147483647, not -2147483648', 'expected_version int4 min');
SELECT pg_temp.refused($$SELECT * FROM act.commit('n', '[{"name": "A"}]', '{}', 2147483647)$$, '40001',
  'concurrency conflict on stream "n": expected version 2147483647, actual version -1', 'expected_version int4 max');
INSERT INTO act.events (stream, version, name, hash) VALUES ('full', 2147483647, 'Last', '\x00');
SELECT pg_temp.refused($$SELECT * FROM act.commit('full', '[{"name": "A"}]')$$, '22023',
  'stream "full" cannot take 1 more events: versions are int4', 'a stream at the last int4 version');
SELECT pg_temp.refused($$SELECT * FROM act.commit('full', '[{"name": "A"}]', '{}', 2147483647)$$, '22023', NULL,
  'even with the right expected version');
SELECT is((SELECT count(*) FROM act.query(after => -9223372036854775808)), (SELECT count(*) FROM act.events WHERE name <> '__snapshot__'),
  'after bigint min reads everything');
SELECT is((SELECT count(*) FROM act.query(after => 9223372036854775807)), 0::bigint, 'after bigint max reads nothing');
SELECT is((SELECT count(*) FROM act.query(before => -9223372036854775808)), 0::bigint, 'before bigint min reads nothing');
SELECT is((SELECT count(*) FROM act.query(max_events => 2147483647)), (SELECT count(*) FROM act.events WHERE name <> '__snapshot__'),
  'max_events int4 max');
SELECT pg_temp.refused($$SELECT * FROM act.query(max_events => -2147483648)$$, '22023', NULL, 'max_events int4 min');
SELECT pg_temp.refused($$SELECT * FROM act.claim(-2147483648, 0, 'w', 1000)$$, '22023', NULL, 'from_lagging int4 min');
SELECT pg_temp.refused($$SELECT * FROM act.claim(0, -1, 'w', 1000)$$, '22023', NULL, 'from_leading -1');
SELECT pg_temp.refused($$SELECT * FROM act.claim(1, 0, 'w', -2147483648)$$, '22023', NULL, 'millis int4 min');
SELECT pg_temp.refused($$SELECT * FROM act.claim(1, 0, 'w', 2147483647)$$, '22023', NULL, 'millis int4 max (beyond an hour)');
SELECT count(*) FROM act.commit('huge-claim', '[{"name": "A"}]');
SELECT is((SELECT subscribed FROM act.subscribe('[{"stream": "huge-claim-target", "source": "huge-claim"}]')), 1,
  'a subscription for the huge claim');
SELECT is((SELECT stream FROM act.claim(2147483647, 2147483647, 'w-huge', 3600000) WHERE stream = 'huge-claim-target'),
  'huge-claim-target', 'claim with int4 max counts and the longest lease');
SELECT is((SELECT leased_until FROM act.subscriptions WHERE stream = 'huge-claim-target'),
  now() + interval '1 hour', 'the lease runs one hour');
SELECT pg_temp.refused($$SELECT * FROM act.ack('[{"stream": "huge-claim-target", "by": "w-huge", "at": 9223372036854775807}]')$$,
  '22023', 'leases: at 9223372036854775807 for stream "huge-claim-target" is beyond act.horizon() (%)%',
  'ack at bigint max (no read could reach it)');
SELECT pg_temp.refused($$SELECT * FROM act.ack('[{"stream": "huge-claim-target", "by": "w-huge", "at": 9223372036854775808}]')$$,
  '22023', 'leases[0].at must be at most 9223372036854775807', 'ack at bigint max + 1');
SELECT pg_temp.refused($$SELECT * FROM act.ack('[{"stream": "s", "by": "w", "at": -2}]')$$, '22023', NULL, 'ack at -2');
SELECT pg_temp.refused($$SELECT * FROM act.ack('[{"stream": "s", "by": "w", "at": 1e400}]')$$, '22023',
  'leases holds a number beyond the range of a double', 'ack at 1e400 (beyond a double)');
SELECT pg_temp.refused($$SELECT * FROM act.ack('[{"stream": "s", "by": "w", "at": 1e30}]')$$, '22023',
  'leases[0].at must be an integer, not 1e+30', 'ack at 1e30');
SELECT pg_temp.refused($$SELECT * FROM act.ack('[{"stream": "s", "by": "w", "at": 1, "due": 9223372036854775807}]')$$, '22023',
  NULL, 'a due in epoch ms beyond the timestamp range');
SELECT pg_temp.refused($$SELECT * FROM act.ack('[{"stream": "s", "by": "w", "at": 1, "retry": -2}]')$$, '22023', NULL, 'retry -2');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe('[{"stream": "s", "priority": 2147483648}]')$$, '22023', NULL,
  'priority int4 max + 1');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe('[{"stream": "s", "priority": -1e400}]')$$, '22023', NULL,
  'priority -1e400');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe('[{"stream": "s", "correlated_at": -2}]')$$, '22023', NULL, 'correlated_at -2');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe('[]', NULL, '{"key": "k", "by": "w", "millis": 2147483648}')$$, '22023', NULL,
  'correlator millis int4 max + 1');
SELECT pg_temp.refused($$SELECT * FROM act.subscribe('[]', NULL, '{"key": "k", "by": "w", "millis": 3600001}')$$, '22023',
  'correlator.millis must be at most 3600000',
  'correlator millis above one hour');
SELECT is(act.prioritize('["huge-claim-target"]', -2147483648), 1, 'prioritize to int4 min');
SELECT pg_temp.refused($$SELECT * FROM act.query_streams(max_streams => -1)$$, '22023', NULL, 'max_streams -1');
SELECT pg_temp.refused($$SELECT * FROM act.query_stats('{}', '{"limit": 1e100}')$$, '22023', NULL, 'query_stats limit 1e100');
SELECT pg_temp.refused($$SELECT * FROM act.query_stats('{}', '{"before": -1e100}')$$, '22023', NULL, 'query_stats before -1e100');
SELECT pg_temp.refused($$SELECT * FROM act.truncate('[{"stream": "seed", "before": "2030-01-01", "max_id": 1e100}]')$$,
  '22003', NULL, 'truncate max_id 1e100');
SELECT is(act.wait(9223372036854775807, 0), act.horizon(), 'wait for bigint max with no timeout returns the horizon');
SELECT is(act.wait(-9223372036854775808, 2147483647), act.horizon(), 'wait past bigint min returns at once');
SELECT pg_temp.refused($$SELECT act.wait(0, -2147483648)$$, '22023', NULL, 'wait timeout int4 min');

SELECT * FROM finish();
ROLLBACK;
