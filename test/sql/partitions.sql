-- Partitioned mode: act.partition_of (a SHA-256 prefix, documented byte for
-- byte), act.set_partition, and the refusal of every single-stream call for
-- a stream of another partition, with nothing written.
BEGIN;
SELECT * FROM no_plan();

\ir lib/refused.sql

SELECT has_function('act', 'partition_of', ARRAY['text', 'integer'], 'act.partition_of(stream, partitions)');
SELECT has_function('act', 'set_partition', ARRAY['integer', 'integer'], 'act.set_partition(partition, partitions)');
SELECT has_function('act', 'hosted_partition', 'act.hosted_partition()');

-- Expected values from an independent SHA-256 (docs/scale-out.md shows the arithmetic).
SELECT is(act.partition_of('ticket-1', 4), 3, '"ticket-1" (73 7c e6 0f) is partition 3 of 4');
SELECT is(act.partition_of('ticket-1', 64), 15, 'and 15 of 64');
SELECT is(act.partition_of('order-7', 64), 2, '"order-7" (df 8c f8 02) is partition 2 of 64');
SELECT is(act.partition_of('order-7', 65536), 63490, 'and 63490 of 65536');
SELECT is(act.partition_of('Zürich-42', 64), 38, 'a name is hashed as its UTF-8 bytes');
SELECT is(act.partition_of('order-7'), 0, 'one partition: every stream is in partition 0');
SELECT is((SELECT count(*) FROM act.hosted_partition()), 0::bigint, 'not partitioned: no hosted partition');
SELECT * FROM pg_temp.refused($$SELECT act.partition_of('x', 3)$$, '22023', 'partitions must be a power of two%', 'a count that is not a power of two');
SELECT * FROM pg_temp.refused($$SELECT act.partition_of('x', 0)$$, '22023', NULL, 'no partitions');
SELECT * FROM pg_temp.refused($$SELECT act.partition_of('x', 131072)$$, '22023', NULL, 'more than 65536 partitions');
SELECT * FROM pg_temp.refused($$SELECT act.partition_of(NULL, 4)$$, '22004', NULL, 'a null stream');

-- A database can become the partition its streams are in, and no other.
SELECT lives_ok($$SELECT act.commit('ticket-1', '[{"name": "Opened"}]')$$, 'a commit before partitioning');
SELECT * FROM pg_temp.refused($$SELECT act.set_partition(0, 4)$$, '22023', '%holds "ticket-1"%of partition 3 of 4%',
  'becoming a partition its streams are not in');
SELECT is((SELECT count(*) FROM act.hosted_partition()), 0::bigint, 'the refused setting is not kept');
SELECT * FROM pg_temp.refused($$SELECT act.set_partition(4, 4)$$, '22023', 'partition must be from 0 to 3%', 'a partition past the count');
SELECT * FROM pg_temp.refused($$SELECT act.set_partition(-1, 4)$$, '22023', NULL, 'a negative partition');
SELECT * FROM pg_temp.refused($$SELECT act.set_partition(0, 6)$$, '22023', NULL, 'a count that is not a power of two');
SELECT * FROM pg_temp.refused($$SELECT act.set_partition(NULL, 4)$$, '22004', NULL, 'a null partition');
SELECT lives_ok($$SELECT act.set_partition(3, 4)$$, 'this database becomes partition 3 of 4');
SELECT results_eq('SELECT partition, partitions FROM act.hosted_partition()', 'VALUES (3, 4)', 'act.hosted_partition says so');
SELECT is(act.partition_of('order-7'), 2, 'partition_of uses the configured count');

-- Calls for a stream of another partition are refused, nothing written.
SELECT * FROM pg_temp.refused($$SELECT act.commit('order-7', '[{"name": "Placed"}]')$$, '22023',
  'stream "order-7" belongs to partition 2 of 4; this database hosts partition 3%', 'a commit to another partition');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query('order-7')$$, '22023', '%partition 2 of 4%', 'a read of another partition''s stream');
SELECT * FROM pg_temp.refused($$SELECT act.version('order-7')$$, '22023', NULL, 'its version');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.verify('order-7')$$, '22023', NULL, 'its chain');
SELECT * FROM pg_temp.refused($$SELECT act.forget_pii('order-7')$$, '22023', NULL, 'forgetting its pii');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.truncate('[{"stream": "order-7"}]')$$, '22023', NULL, 'truncating it');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.query_stats('["ticket-1", "order-7"]')$$, '22023', NULL, 'its stats, among hosted ones');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit_by_key('order-7', 'k')$$, '22023', NULL, 'a keyed commit lookup');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.subscribe('[{"stream": "t-1", "source": "order-7"}]')$$, '22023',
  '%"order-7"%partition 2 of 4%', 'a subscription reading another partition''s stream');

-- The hosted partition's streams, and what is partition-wide, work as before.
SELECT lives_ok($$SELECT act.commit('ticket-1', '[{"name": "Closed"}]', '{}', 0)$$, 'a commit to a hosted stream');
SELECT is(act.version('ticket-1'), 1, 'its version');
SELECT is((SELECT count(*) FROM act.query('ticket-1')), 2::bigint, 'its events');
SELECT is((SELECT count(*) FROM act.query()), 2::bigint, 'a read of the whole partition');
SELECT is((SELECT count(*) FROM act.query('order-.*', stream_exact => false)), 0::bigint, 'a pattern reads the partition''s matches');
SELECT is((SELECT valid FROM act.verify('ticket-1')), true, 'its chain verifies');
SELECT is((SELECT count(*) FROM act.query_stats('["ticket-1"]')), 1::bigint, 'its stats');
SELECT lives_ok($$SELECT act.subscribe('[{"stream": "t-2", "source": "ticket-1"}, {"stream": "t-3"}, {"stream": "t-4", "source": "order-.*"}]')$$,
  'subscriptions reading a hosted stream, every stream or a pattern');
SELECT lives_ok($$SELECT act.commit('ticket-8', '[{"name": "Opened"}]')$$, 'a new stream of the partition ("ticket-8": 3 of 4)');

-- Setting it again: to the same partition, or to a count its streams still fit.
SELECT lives_ok($$SELECT act.set_partition(3, 4)$$, 'setting the same partition again');
SELECT * FROM pg_temp.refused($$SELECT act.set_partition(0, 2)$$, '22023', NULL, 'a partition of fewer its streams are not in');
SELECT lives_ok($$SELECT act.set_partition(1, 2)$$, 'one its streams are all in ("ticket-1" and "ticket-8" are 1 of 2)');
SELECT lives_ok($$SELECT act.set_partition(0, 1)$$, 'back to one partition');
SELECT lives_ok($$SELECT act.commit('order-7', '[{"name": "Placed"}]')$$, 'then every stream is hosted');

-- act.widen checks a literal source's partition too. A row reading another
-- partition's stream is there only if the setting was written past
-- act.set_partition's check, as here (the ALTER is the relcache
-- invalidation act.set_partition sends).
SELECT lives_ok($$SELECT act.subscribe('[{"stream": "t-5", "source": "order-7", "names": ["Placed"]}]')$$,
  'a subscription reading "order-7", every stream hosted');
UPDATE act.partitioning SET partition = 3, partitions = 4;
ALTER TABLE act.partitioning ALTER COLUMN set_at SET DEFAULT now();
SELECT * FROM pg_temp.refused($$SELECT * FROM act.widen('t-5', '["Shipped"]')$$, '22023', '%"order-7"%partition 2 of 4%',
  'widening a subscription reading another partition''s stream');
UPDATE act.partitioning SET partition = 0, partitions = 1;
ALTER TABLE act.partitioning ALTER COLUMN set_at SET DEFAULT now();

-- Consistency boundaries (docs/scale-out.md): a tag lives on the partition
-- act.partition_of(tag) names; a query reads the partition of each item's first tag.
UPDATE act.partitioning SET partition = 3, partitions = 4;
ALTER TABLE act.partitioning ALTER COLUMN set_at SET DEFAULT now();
SELECT is((SELECT count(*) FROM act.append('[{"stream": "ticket-1", "name": "Opened", "tags": ["ticket-1"]}]')), 1::bigint,
  'an event whose tag this partition hosts');
SELECT is((SELECT count(*) FROM act.read('{"items": [{"tags": ["ticket-1"]}]}')), 1::bigint, 'a read of a tag this partition hosts');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.commit('ticket-1', '[{"name": "A", "tags": ["order-7"]}]')$$, '22023',
  'event 0 of stream "ticket-1": tag "order-7" belongs to partition 2 of 4%', 'commit: a tag of another partition');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.append('[{"stream": "ticket-1", "name": "A", "tags": ["ticket-1", "order-7"]}]')$$,
  '22023', '%tag "order-7" belongs to partition 2 of 4%', 'append: a second tag of another partition');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.read('{"items": [{"tags": ["order-7"]}]}')$$, '22023',
  'query.items[0]: tag "order-7" belongs to partition 2 of 4%', 'read: an item whose first tag another partition hosts');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.read('{"items": [{"types": ["Opened"]}]}')$$, '22023',
  'query.items[0] has no tag: in partitioned mode every item needs one%', 'read: an item without a tag');
SELECT * FROM pg_temp.refused($$SELECT * FROM act.append('[]', '{"fail_if_events_match": {"items": [{"tags": ["order-7"]}]}}')$$,
  '22023', 'condition.fail_if_events_match.items[0]: tag "order-7"%', 'append: a condition another partition holds');
SELECT is((SELECT count(*) FROM act.event_tags), 1::bigint, 'the refused calls wrote no tag');
UPDATE act.partitioning SET partition = 0, partitions = 1;
ALTER TABLE act.partitioning ALTER COLUMN set_at SET DEFAULT now();

-- Only an admin sets the partition.
SET LOCAL ROLE act_worker;
SELECT matches(pg_temp.outcome($$SELECT act.set_partition(0, 2)$$), '^42501', 'a worker may not set the partition');
RESET ROLE;
SELECT results_eq('SELECT partition, partitions FROM act.hosted_partition()', 'VALUES (0, 1)', 'and it did not');

SELECT * FROM finish();
ROLLBACK;
