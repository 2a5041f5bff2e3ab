-- act.query_stats: heads, tails, counts, names, filters, ordering, bad input.
BEGIN;
SELECT * FROM no_plan();

SELECT count(*) FROM act.commit('b-1', '[{"name": "A", "data": {"n": 1}, "pii": {"x": 1}}, {"name": "B"}, {"name": "A"}]');  -- 1,2,3
SELECT count(*) FROM act.commit('a-1', '[{"name": "A"}]');                                                      -- 4
SELECT count(*) FROM act.commit('B-2', '[{"name": "C"}, {"name": "__snapshot__", "data": {}}]');                  -- 5,6

SELECT results_eq($$SELECT stream FROM act.query_stats()$$, ARRAY['B-2', 'a-1', 'b-1'], 'every stream, in C collation');
SELECT results_eq($$SELECT head ->> 'id', head ->> 'name', tail, count, names FROM act.query_stats('["b-1"]')$$,
  $$VALUES ('3', 'A', NULL::jsonb, NULL::bigint, NULL::jsonb)$$, 'heads only by default');
SELECT is((SELECT head FROM act.query_stats('["b-1"]')) - 'created',
  '{"id": 3, "stream": "b-1", "version": 2, "name": "A", "data": {}, "meta": {}}'::jsonb, 'head has the documented keys, never pii');
SELECT is((SELECT (head ->> 'created')::timestamptz FROM act.query_stats('["b-1"]')), now(), 'created as to_jsonb renders it');
SELECT results_eq($$SELECT tail ->> 'version', tail -> 'data', tail ? 'pii' FROM act.query_stats('["b-1"]', '{"tail": true}')$$,
  $$VALUES ('0', '{"n": 1}'::jsonb, false)$$, 'tail on request');
SELECT results_eq($$SELECT count, names FROM act.query_stats('["b-1"]', '{"count": true, "names": true}')$$,
  $$VALUES (3::bigint, '{"A": 2, "B": 1}'::jsonb)$$, 'count and names on request');
SELECT results_eq($$SELECT count, names FROM act.query_stats('["b-1"]', '{"count": true}')$$,
  $$VALUES (3::bigint, NULL::jsonb)$$, 'only what was asked');
SELECT results_eq($$SELECT head ->> 'name', count FROM act.query_stats('["B-2"]', '{"exclude": ["__snapshot__"], "count": true}')$$,
  $$VALUES ('C', 1::bigint)$$, 'exclude applies to head and count');
SELECT results_eq($$SELECT head ->> 'id' FROM act.query_stats('["b-1"]', '{"before": 3}')$$, ARRAY['2'], 'before: ids below');
SELECT results_eq($$SELECT stream FROM act.query_stats('{}', '{"after": "B-2"}')$$, ARRAY['a-1', 'b-1'], 'after: keyset in C collation');
SELECT results_eq($$SELECT stream FROM act.query_stats('{}', '{"limit": 2}')$$, ARRAY['B-2', 'a-1'], 'limit');
SELECT results_eq($$SELECT stream FROM act.query_stats('{"stream": "^[ab]-", "stream_exact": false}')$$, ARRAY['a-1', 'b-1'], 'a regex');
SELECT results_eq($$SELECT stream FROM act.query_stats('{"stream": "a-1"}')$$, ARRAY['a-1'], 'an exact object');
SELECT is((SELECT count(*) FROM act.query_stats('[]')), 0::bigint, 'an empty list gives nothing');
SELECT is((SELECT count(*) FROM act.query_stats('["nope"]')), 0::bigint, 'a stream with no events is absent');

SELECT throws_ok($$SELECT * FROM act.query_stats('[1]')$$, '22023', NULL, 'names must be strings');
SELECT throws_ok($$SELECT * FROM act.query_stats('{}', '{"count": "maybe"}')$$, '22023', NULL, 'options must have the right types');

SELECT * FROM finish();
ROLLBACK;
