-- Tags, act.read and act.append (docs/dcb.md): results, conditions, errors
-- (one bad input per line), and nothing written by a call that fails.
BEGIN;
SELECT * FROM no_plan();

SELECT has_function('act', 'read', ARRAY['jsonb', 'bigint', 'integer'], 'act.read(query, after, limit)');
SELECT has_function('act', 'append', ARRAY['jsonb', 'jsonb', 'jsonb'], 'act.append(events, condition, meta)');
SELECT function_returns('act', 'append', ARRAY['jsonb', 'jsonb', 'jsonb'], 'setof act.events', 'append returns SETOF act.events');

-- Tags on commit and append
CREATE TEMP TABLE course AS SELECT * FROM act.commit('course-c1',
  '[{"name": "CourseDefined", "data": {"capacity": 2}, "tags": ["course:c1"]}, {"name": "Noted", "tags": []}]');
CREATE TEMP TABLE enrol AS SELECT * FROM act.append(
  '[{"stream": "student-s1", "name": "Enrolled", "tags": ["student:s1", "course:c1"]},
    {"stream": "course-c1", "name": "SeatTaken", "tags": ["course:c1"]},
    {"stream": "student-s1", "name": "Welcomed"}]',
  '{"fail_if_events_match": {"items": [{"types": ["Enrolled"], "tags": ["student:s1", "course:c1"]}]}}',
  '{"correlation": "c-9"}');
SELECT results_eq('SELECT stream, version, name FROM enrol ORDER BY id',
  $$VALUES ('student-s1', 0, 'Enrolled'), ('course-c1', 2, 'SeatTaken'), ('student-s1', 1, 'Welcomed')$$,
  'an append continues each stream''s versions, ids in array order');
SELECT is((SELECT count(DISTINCT meta) || '/' || count(DISTINCT created) FROM enrol), '1/1', 'one meta and one created');
SELECT is((SELECT meta FROM enrol LIMIT 1), '{"correlation": "c-9"}'::jsonb, 'meta stored as given');
SELECT results_eq($$SELECT name, tags FROM act.read('{"items": [{"tags": ["course:c1"]}]}')$$,
  $$VALUES ('CourseDefined', '{course:c1}'::text[]), ('Enrolled', '{student:s1,course:c1}'), ('SeatTaken', '{course:c1}')$$,
  'act.read: events carrying the tag, with their tags in the order given');
SELECT results_eq($$SELECT name, tags FROM act.read('{"items": [{"types": ["Noted", "Welcomed"]}]}')$$,
  $$VALUES ('Noted', '{}'::text[]), ('Welcomed', '{}')$$, 'act.read: by type; an untagged event has tags {}');
SELECT results_eq($$SELECT name FROM act.read('{"items": [{"types": ["Enrolled"], "tags": ["course:c1", "student:s1"]}, {"types": ["CourseDefined"]}]}')$$,
  $$VALUES ('CourseDefined'), ('Enrolled')$$, 'act.read: items are OR''d, an event matched twice comes once');
SELECT results_eq($$SELECT name FROM act.read('{"items": [{"tags": ["course:c1", "student:s2"]}]}')$$,
  'SELECT NULL::text WHERE false', 'act.read: an item needs every one of its tags');
SELECT is((SELECT count(*) FROM act.read('{"items": []}')), 0::bigint, 'act.read: no items match nothing');
SELECT is((SELECT count(*) FROM act.read('{"items": [{}]}')), 5::bigint, 'act.read: an empty item matches every event');
SELECT results_eq($$SELECT name FROM act.read('{"items": [{"tags": ["course:c1"]}]}', (SELECT min(id) FROM course), 1)$$,
  $$VALUES ('Enrolled')$$, 'act.read: after an id, at most limit');
SELECT is((SELECT count(*) FROM act.read('{"items": [{"tags": ["course:c1"]}]}', -1, 0)), 0::bigint, 'act.read: limit 0 reads nothing');
SELECT is((SELECT count(*) FROM act.commit('course-c1', '[{"name": "__snapshot__", "data": {}, "tags": ["course:c1"]}]')),
  1::bigint, 'a snapshot may carry tags');
SELECT is((SELECT count(*) FROM act.read('{"items": [{"tags": ["course:c1"]}]}')), 3::bigint, 'a snapshot never matches a query');
SELECT is((SELECT count(*) FROM act.verify() WHERE NOT valid), 0::bigint, 'tagged events verify');

-- act.claim_events hands out tags (key present only when there are some).
SELECT is((SELECT count(*) FROM act.subscribe('[{"stream": "tag-reader", "source": "student-s1", "lane": "tags"}]')), 1::bigint,
  'a subscription to a stream with tagged events');
CREATE TEMP TABLE claimed AS SELECT * FROM act.claim_events(10, 0, 'w', 60000, 'tags', 10);
SELECT is((SELECT events -> 0 -> 'tags' FROM claimed), '["student:s1", "course:c1"]'::jsonb, 'a tagged event object carries its tags in order');
SELECT is((SELECT events -> 1 ? 'tags' FROM claimed), false, 'an untagged event object has no tags key');

-- Conditions
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "student-s1", "name": "Enrolled", "tags": ["student:s1", "course:c1"]}]',
  '{"fail_if_events_match": {"items": [{"types": ["Absent"]}, {"types": ["Enrolled"], "tags": ["student:s1"]}]}}')$$,
  '40001', format('append condition failed: event %s matches item 1 after null', (SELECT id FROM enrol WHERE name = 'Enrolled')),
  'a uniqueness guard without after fails on any match');
SELECT throws_ok(format($$SELECT * FROM act.append('[{"stream": "course-c1", "name": "SeatTaken", "tags": ["course:c1"]}]',
  '{"fail_if_events_match": {"items": [{"tags": ["course:c1"]}]}, "after": %s}')$$, (SELECT id FROM course WHERE version = 0)),
  '40001', format('append condition failed: event %s matches item 0 after %s', (SELECT id FROM enrol WHERE name = 'Enrolled'),
  (SELECT id FROM course WHERE version = 0)), 'a match after the id read fails');
SELECT is((SELECT count(*) FROM act.append('[{"stream": "course-c1", "name": "SeatTaken", "tags": ["course:c1"]}]',
  format('{"fail_if_events_match": {"items": [{"tags": ["course:c1"]}]}, "after": %s}', act.max_event_id())::jsonb)),
  1::bigint, 'no match after the last id read: appends');
SELECT is((SELECT count(*) FROM act.append('[{"stream": "x-1", "name": "A"}]', '{"fail_if_events_match": {"items": [{"types": ["Nothing"]}]}}')),
  1::bigint, 'no match at all: appends');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "x-1", "name": "B"}]', '{"expected_versions": {"x-1": 0, "student-s1": 0}}')$$,
  '40001', 'concurrency conflict on stream "student-s1": expected version 0, actual version 1',
  'expected_versions checks a stream only read');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "x-1", "name": "B"}]', '{"expected_versions": {"x-1": -1}}')$$,
  '40001', 'concurrency conflict on stream "x-1": expected version -1, actual version 0', '-1: the stream must not exist');
SELECT is((SELECT count(*) FROM act.append('[{"stream": "x-1", "name": "B"}, {"stream": "x-2", "name": "C"}]',
  '{"expected_versions": {"x-1": 0, "x-2": -1, "student-s1": 1}}')), 2::bigint, 'expected versions that hold: appends');
SELECT is((SELECT count(*) FROM act.append('[]', '{"expected_versions": {"x-1": 1}}')), 0::bigint, 'no events: only checks');
SELECT lives_ok($$SELECT * FROM act.commit('closed-1', '[{"name": "A"}]')$$, 'a stream to close');
SELECT lives_ok($$SELECT * FROM act.truncate('[{"stream": "closed-1"}]')$$, 'closed with a tombstone');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "x-3", "name": "A"}, {"stream": "closed-1", "name": "A"}]')$$, '55000',
  NULL, 'a closed stream refuses, and the whole append with it');

-- Queries whose every item has a tag (read through the tag index).
CREATE TEMP TABLE tagged AS SELECT * FROM act.append(
  '[{"stream": "tagged-1", "name": "Opened", "data": {"n": 1}, "tags": ["t:a"]},
    {"stream": "tagged-1", "name": "Moved", "tags": ["t:b", "t:a"]},
    {"stream": "tagged-2", "name": "Opened", "tags": ["t:b"]},
    {"stream": "tagged-2", "name": "Closed", "tags": ["t:a", "t:c"]}]', NULL, '{"correlation": "tagged"}');
SELECT results_eq($$SELECT id, stream, version, name, data, meta, created, tags FROM act.read('{"items": [{"tags": ["t:a"]}, {"tags": ["t:b"]}]}')$$,
  $$SELECT e.id, e.stream, e.version, e.name, e.data, e.meta, e.created, ARRAY(SELECT g.tag FROM act.event_tags g WHERE g.id = e.id ORDER BY g.ord)
      FROM act.events e WHERE e.id IN (SELECT id FROM tagged) ORDER BY e.id$$,
  'act.read by tags: the rows of act.events and their tags, each event once, in id order across items');
SELECT results_eq($$SELECT name FROM act.read('{"items": [{"tags": ["t:c"]}, {"tags": ["t:b"]}]}', -1, 2)$$,
  $$VALUES ('Moved'), ('Opened')$$, 'act.read by tags: the limit counts the events of every item, in id order');
SELECT results_eq($$SELECT name FROM act.read('{"items": [{"types": ["Opened", "Closed"], "tags": ["t:a"]}, {"types": ["Moved"], "tags": ["t:a", "t:b"]}]}')$$,
  $$VALUES ('Opened'), ('Moved'), ('Closed')$$, 'act.read by tags: an item''s types and every one of its tags');
SELECT throws_ok(format($$SELECT * FROM act.append('[{"stream": "tagged-3", "name": "X"}]', '{"fail_if_events_match": {"items": [{"tags": ["t:c"]}, {"tags": ["t:b"]}]}, "after": %s}')$$,
  (SELECT min(id) FROM tagged)), '40001', format('append condition failed: event %s matches item 1 after %s',
  (SELECT id FROM tagged WHERE name = 'Moved'), (SELECT min(id) FROM tagged)), 'a condition by tags: the first matching event, whichever item matches it');
SELECT throws_ok(format($$SELECT * FROM act.append('[{"stream": "tagged-3", "name": "X"}]', '{"fail_if_events_match": {"items": [{"types": ["Closed"], "tags": ["t:c"]}, {"tags": ["t:a", "t:c"]}]}, "after": %s}')$$,
  (SELECT id FROM tagged WHERE stream = 'tagged-2' AND name = 'Opened')), '40001', format('append condition failed: event %s matches item 0 after %s',
  (SELECT id FROM tagged WHERE name = 'Closed'), (SELECT id FROM tagged WHERE stream = 'tagged-2' AND name = 'Opened')), 'a condition by tags: an event two items match names the first');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "tagged-3", "name": "X"}]', '{"fail_if_events_match": {"items": [{"types": ["Moved"], "tags": ["t:b", "t:c"]}, {"types": ["Opened"], "tags": ["t:b"]}]}}')$$,
  '40001', format('append condition failed: event %s matches item 1 after null', (SELECT id FROM tagged WHERE stream = 'tagged-2' AND name = 'Opened')),
  'a condition by tags: an item needs every one of its tags and one of its types');

-- Bad input, one per line; then nothing written.
CREATE TEMP TABLE before_errors AS SELECT (SELECT count(*) FROM act.events) AS events, (SELECT count(*) FROM act.event_tags) AS tags;
SELECT throws_ok($$SELECT * FROM act.commit('t-1', '[{"name": "A", "tags": "a"}]')$$, '22023', 'event 0 of stream "t-1": "tags" must be a JSON array, not a string', 'commit: tags not an array');
SELECT throws_ok($$SELECT * FROM act.commit('t-1', '[{"name": "A", "tags": [1]}]')$$, '22023', 'event 0 of stream "t-1": tag 0 must be a string, not a number', 'commit: a tag not a string');
SELECT throws_ok($$SELECT * FROM act.commit('t-1', '[{"name": "A", "tags": [""]}]')$$, '22023', 'event 0 of stream "t-1": tag 0 must not be empty', 'commit: an empty tag');
SELECT throws_ok($$SELECT * FROM act.commit('t-1', '[{"name": "A", "tags": ["a", "a"]}]')$$, '22023', 'event 0 of stream "t-1": tag 1 repeats tag "a" (tags must be distinct)', 'commit: a repeated tag');
SELECT throws_ok(format($$SELECT * FROM act.commit('t-1', '[{"name": "A", "tags": ["%s"]}]')$$, repeat('x', 257)), '22023', 'event 0 of stream "t-1": tag 0 is longer than 256 bytes', 'commit: a tag over 256 bytes');
SELECT throws_ok(format($$SELECT * FROM act.commit('t-1', '[{"name": "A", "tags": %s}]')$$, (SELECT json_agg('t' || i) FROM generate_series(1, 65) i)), '22023', 'event 0 of stream "t-1": "tags" has 65 tags, more than 64', 'commit: 65 tags');
SELECT throws_ok($$SELECT * FROM act.append(NULL)$$, '22004', 'events must not be null', 'append: NULL events');
SELECT throws_ok($$SELECT * FROM act.append('{}')$$, '22023', 'events must be a JSON array, not an object', 'append: events not an array');
SELECT throws_ok($$SELECT * FROM act.append('[1]')$$, '22023', 'events[0] must be a JSON object, not a number', 'append: an event not an object');
SELECT throws_ok($$SELECT * FROM act.append('[{"name": "A"}]')$$, '22023', 'events[0] has no "stream"', 'append: no stream');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": 1, "name": "A"}]')$$, '22023', 'events[0]: "stream" must be a string, not a number', 'append: stream not a string');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "", "name": "A"}]')$$, '22023', NULL, 'append: an empty stream');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1"}]')$$, '22023', 'event 0 of stream "t-1" has no "name"', 'append: no name');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "__tombstone__"}]')$$, '22023', NULL, 'append: a reserved name');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A", "payload": {}}]')$$, '22023', 'event 0 of stream "t-1": unknown key "payload" (known: stream, name, data, pii, tags)', 'append: an unknown event key');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A", "data": []}]')$$, '22023', NULL, 'append: data not an object');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A", "tags": ["a", "a"]}]')$$, '22023', 'event 0 of stream "t-1": tag 1 repeats tag "a" (tags must be distinct)', 'append: a repeated tag');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '[]')$$, '22023', NULL, 'append: condition not an object');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '{"fail_if": {}}')$$, '22023', 'condition: unknown key "fail_if" (known: fail_if_events_match, after, expected_versions)', 'append: an unknown condition key');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '{"fail_if_events_match": {}}')$$, '22023', 'condition.fail_if_events_match has no "items"', 'append: a query without items');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '{"fail_if_events_match": {"items": [{"tagz": []}]}}')$$, '22023', 'condition.fail_if_events_match.items[0]: unknown key "tagz" (known: types, tags)', 'append: an unknown item key');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '{"fail_if_events_match": {"items": [{"types": "A"}]}}')$$, '22023', NULL, 'append: types not an array');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '{"after": "1"}')$$, '22023', 'condition.after must be an integer, not a string', 'append: after not an integer');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '{"after": 1000000}')$$, '22023', NULL, 'append: after above act.horizon()');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '{"expected_versions": {"t-1": "0"}}')$$, '22023', NULL, 'append: an expected version not an integer');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '{"expected_versions": {"t-1": -2}}')$$, '22023', NULL, 'append: an expected version below -1');
SELECT throws_ok($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', NULL, '[]')$$, '22023', 'meta must be a JSON object, not an array', 'append: meta not an object');
SELECT throws_ok(format($$SELECT * FROM act.append('[{"stream": "t-1", "name": "A"}]', '{"fail_if_events_match": {"items": %s}}')$$, (SELECT json_agg('{}'::json) FROM generate_series(1, 65))), '22023', 'condition.fail_if_events_match.items has 65 items, more than 64', 'append: 65 items');
SELECT throws_ok($$SELECT * FROM act.read(NULL)$$, '22004', 'query must not be null', 'read: NULL query');
SELECT throws_ok($$SELECT * FROM act.read('[]')$$, '22023', NULL, 'read: query not an object');
SELECT throws_ok($$SELECT * FROM act.read('{"items": [{"tags": [""]}]}')$$, '22023', 'query.items[0]: tag 0 must not be empty', 'read: an empty tag');
SELECT throws_ok($$SELECT * FROM act.read('{"items": [{"types": [1]}]}')$$, '22023', 'query.items[0].types[0] must be a string, not a number', 'read: a type not a string');
SELECT throws_ok($$SELECT * FROM act.read('{"items": []}', -1, -1)$$, '22023', 'limit must be 0 or more, not -1', 'read: a negative limit');
SELECT is((SELECT count(*) FROM act.events), (SELECT events FROM before_errors), 'no event written by a failed call');
SELECT is((SELECT count(*) FROM act.event_tags), (SELECT tags FROM before_errors), 'no tag written by a failed call');

SELECT * FROM finish();
ROLLBACK;
