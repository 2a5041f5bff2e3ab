-- act.query: every filter, ordering, limits, snapshots, bad input.
BEGIN;
SELECT * FROM no_plan();

SELECT has_function('act', 'query',
  ARRAY['text', 'bigint', 'bigint', 'text[]', 'integer', 'boolean', 'boolean', 'timestamp with time zone',
        'timestamp with time zone', 'text', 'boolean'], 'act.query signature');

SELECT count(*) FROM act.commit('cart-1', '[{"name": "Added", "data": {"sku": "a"}}, {"name": "Added", "data": {"sku": "b"}}]', '{"correlation": "k1"}');  -- ids 1,2
SELECT count(*) FROM act.commit('cart-2', '[{"name": "Added"}]', '{"correlation": "k2"}');                                                -- id 3
SELECT count(*) FROM act.commit('cart-1', '[{"name": "__snapshot__", "data": {"items": 2}}]');                                              -- id 4
SELECT count(*) FROM act.commit('cart-1', '[{"name": "Removed"}, {"name": "CheckedOut"}]', '{"correlation": "k1"}');                      -- ids 5,6
SELECT count(*) FROM act.commit('order-9', '[{"name": "Placed"}]');                                                                        -- id 7

SELECT results_eq('SELECT id FROM act.query()', ARRAY[1, 2, 3, 5, 6, 7]::bigint[], 'no filter: every event but snapshots, in id order');
SELECT results_eq('SELECT id FROM act.query(with_snaps => true)', ARRAY[1, 2, 3, 4, 5, 6, 7]::bigint[], 'with_snaps includes snapshots');
SELECT results_eq($$SELECT id FROM act.query('cart-1')$$, ARRAY[1, 2, 5, 6]::bigint[], 'exact stream');
SELECT results_eq($$SELECT id FROM act.query('cart-1', with_snaps => true)$$, ARRAY[4, 5, 6]::bigint[],
  'exact stream with snapshots resumes at the latest snapshot');
SELECT results_eq($$SELECT id FROM act.query('cart-1', with_snaps => true, backward => true)$$, ARRAY[6, 5, 4]::bigint[],
  'the snapshot floor applies backward too');
SELECT results_eq($$SELECT id FROM act.query('cart-1', after => 1, with_snaps => true)$$, ARRAY[2, 4, 5, 6]::bigint[],
  'after wins over the snapshot floor');
SELECT results_eq($$SELECT id FROM act.query('cart-', stream_exact => false)$$, ARRAY[1, 2, 3, 5, 6]::bigint[],
  'stream_exact = false: a regex');
SELECT results_eq($$SELECT id FROM act.query('^cart-[2-9]$', stream_exact => false)$$, ARRAY[3]::bigint[], 'anchored regex');
SELECT is((SELECT count(*) FROM act.query('cart')), 0::bigint, 'exact stream does not match a prefix');
SELECT results_eq('SELECT id FROM act.query(after => 3)', ARRAY[5, 6, 7]::bigint[], 'after is exclusive');
SELECT results_eq('SELECT id FROM act.query(after => 0)', ARRAY[1, 2, 3, 5, 6, 7]::bigint[], 'after 0 is a real filter');
SELECT results_eq('SELECT id FROM act.query(before => 3)', ARRAY[1, 2]::bigint[], 'before is exclusive');
SELECT results_eq('SELECT id FROM act.query(after => 1, before => 6)', ARRAY[2, 3, 5]::bigint[], 'a window');
SELECT results_eq($$SELECT id FROM act.query(names => ARRAY['Removed', 'Placed'])$$, ARRAY[5, 7]::bigint[], 'names');
SELECT is((SELECT count(*) FROM act.query(names => ARRAY[]::text[])), 0::bigint, 'an empty names array matches nothing');
SELECT results_eq('SELECT id FROM act.query(max_events => 2)', ARRAY[1, 2]::bigint[], 'max_events');
SELECT results_eq('SELECT id FROM act.query(max_events => 0)', ARRAY[1, 2, 3, 5, 6, 7]::bigint[], 'max_events 0 = unlimited');
SELECT results_eq('SELECT id FROM act.query(backward => true, max_events => 2)', ARRAY[7, 6]::bigint[], 'backward');
SELECT results_eq($$SELECT id FROM act.query(correlation => 'k1')$$, ARRAY[1, 2, 5, 6]::bigint[], 'correlation');
SELECT is((SELECT count(*) FROM act.query(created_after => now())), 0::bigint, 'created_after is strict');
SELECT is((SELECT count(*) FROM act.query(created_after => now() - interval '1 second')), 6::bigint, 'created_after');
SELECT is((SELECT count(*) FROM act.query(created_before => now())), 0::bigint, 'created_before is strict');
SELECT is((SELECT count(*) FROM act.query(created_before => now() + interval '1 second')), 6::bigint, 'created_before');
SELECT results_eq($$SELECT stream, version, name, data FROM act.query('cart-1', max_events => 1)$$,
  $$VALUES ('cart-1', 0, 'Added', '{"sku": "a"}'::jsonb)$$, 'rows carry every column');

-- Bad input
SELECT throws_ok('SELECT * FROM act.query(max_events => -1)', '22023', 'max_events must be 0 (unlimited) or more, not -1',
  'negative max_events');
SELECT throws_ok($$SELECT * FROM act.query('cart-(', stream_exact => false)$$, '2201B', NULL, 'an invalid regex: 2201B');
SELECT lives_ok('SELECT * FROM act.query()', 'the backend is healthy after the errors');

SELECT * FROM finish();
ROLLBACK;
