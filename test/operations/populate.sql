-- A database with something in every table of the extension: events with
-- pii, a snapshot, a closed stream, a stream cut at a retention window (an
-- anchor), static, pattern and source-less subscriptions (wide marks),
-- watermarks, a blocked and a deferred row, leases and correlate checkpoints.
-- Run by test/run-dump-restore.sh and test/run-upgrade.sh with psql.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
SELECT count(*) FROM act.subscribe(
  '[{"stream": "audit", "source": "order-3"},
    {"stream": "everything"},
    {"stream": "placed-1x", "source": "^order-1[0-9]$", "names": ["Placed"], "priority": 2, "lane": "slow"},
    {"stream": "parked", "source": "order-4"}]',
  NULL, '{"key": "shipping", "by": "correlator-1", "millis": 600000}');
SELECT count(*) FROM generate_series(1, 20) i, LATERAL act.commit('order-' || i, jsonb_build_array(
    jsonb_build_object('name', 'Placed', 'data', jsonb_build_object('sku', 'A' || i, 'qty', i),
                       'pii', jsonb_build_object('email', i || '@example.com')),
    jsonb_build_object('name', 'Paid', 'data', jsonb_build_object('amount', i * 1.5))),
  jsonb_build_object('correlation', 'c-' || i, 'causation', '{}'::jsonb), -1);
SELECT count(*) FROM act.commit('order-1', '[{"name": "__snapshot__", "data": {"state": "paid"}}]');
SELECT count(*) FROM act.commit('order-1', '[{"name": "Shipped"}]');
SELECT count(*) FROM act.truncate('[{"stream": "order-1", "before": "infinity"}]');
SELECT count(*) FROM act.truncate('[{"stream": "order-2"}]');
SELECT count(*) FROM act.commit('order-15', '[{"name": "Placed"}, {"name": "Cancelled"}]');
SELECT count(*) FROM act.subscribe('[]', 30, '{"key": "shipping", "by": "correlator-1", "millis": 600000}');
SELECT count(*) FROM act.claim(10, 0, 'worker-1', 600000);
SELECT count(*) FROM act.ack('[{"stream": "audit", "by": "worker-1", "at": 5}]');
SELECT count(*) FROM act.block('[{"stream": "everything", "by": "worker-1", "error": "handler failed"}]');
SELECT act.defer('["parked"]', '2100-01-01 00:00:00+00');
