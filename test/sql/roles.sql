-- Roles, grants, append-only tables, pinned search_path, pg_dump registration.
BEGIN;
SELECT * FROM no_plan();

SELECT has_role(r, r || ' exists') FROM unnest(ARRAY['act_reader', 'act_writer', 'act_worker', 'act_admin']) r;
SELECT ok(pg_has_role('act_admin', 'act_worker', 'MEMBER') AND pg_has_role('act_worker', 'act_writer', 'MEMBER')
          AND pg_has_role('act_writer', 'act_reader', 'MEMBER'), 'each role includes the one before it');
SELECT is((SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'act' AND has_function_privilege('public', p.oid, 'EXECUTE')), 0::bigint,
  'PUBLIC may execute no function in schema act');
SELECT is((SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'act' AND p.prosecdef
              AND NOT EXISTS (SELECT 1 FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%')), 0::bigint,
  'every owner-rights function pins search_path, act.commit and act.version included');
SELECT is((SELECT array_agg(c.relname::text ORDER BY c.relname) FROM pg_extension x
             JOIN pg_class c ON c.oid = ANY (x.extconfig) WHERE x.extname = 'pg_act'),
  ARRAY['checkpoints', 'correlators', 'event_tags', 'events', 'events_id_seq', 'log_entries', 'log_keys', 'log_removals', 'log_state', 'log_tiles', 'partitioning',
        'stream_anchors', 'subscription_rows', 'wide_classes', 'wide_marks'], 'tables and sequence are registered for pg_dump');

CREATE ROLE app_reader IN ROLE act_reader;
CREATE ROLE app_writer IN ROLE act_writer;
CREATE ROLE app_admin IN ROLE act_admin;
CREATE ROLE outsider;

SET ROLE app_writer;
SELECT is((SELECT version FROM act.commit('r-1', '[{"name": "A"}]')), 0, 'act_writer commits');
SELECT throws_ok($$INSERT INTO act.events (stream, version, name, hash) VALUES ('r-1', 1, 'X', '\x00')$$, '42501', NULL,
  'act_writer cannot INSERT into act.events');
SELECT throws_ok($$UPDATE act.events SET data = '{"x": 1}'$$, '42501', NULL, 'act_writer cannot UPDATE act.events');
SELECT throws_ok($$DELETE FROM act.events$$, '42501', NULL, 'act_writer cannot DELETE from act.events');
SELECT throws_ok($$SELECT * FROM act.truncate('[{"stream": "r-1"}]')$$, '42501', NULL, 'act_writer cannot truncate');
RESET ROLE;

CREATE ROLE app_worker IN ROLE act_worker;
SET ROLE app_worker;
SELECT is((SELECT subscribed FROM act.subscribe('[{"stream": "r-sub"}]')), 1, 'act_worker subscribes');
SELECT is((SELECT stream FROM act.claim(1, 0, 'w', 1000)), 'r-sub', 'act_worker claims (the new row was back-filled with r-1''s event)');
SELECT throws_ok($$SELECT act.reset('["r-sub"]')$$, '42501', NULL, 'act_worker cannot reset');
RESET ROLE;

SET ROLE app_writer;
SELECT throws_ok($$SELECT * FROM act.claim(1, 0, 'w', 1000)$$, '42501', NULL, 'act_writer cannot claim');
SELECT throws_ok($$SELECT * FROM act.subscribe('[]')$$, '42501', NULL, 'act_writer cannot subscribe');
RESET ROLE;

SET ROLE app_reader;
SELECT is((SELECT count(*) FROM act.query_streams()), 1::bigint, 'act_reader lists subscriptions');
SELECT is((SELECT count(*) FROM act.query('r-1')), 1::bigint, 'act_reader reads');
SELECT is((SELECT valid FROM act.verify('r-1')), true, 'act_reader verifies');
SELECT throws_ok($$SELECT * FROM act.commit('r-1', '[{"name": "B"}]')$$, '42501', NULL, 'act_reader cannot commit');
SELECT throws_ok($$SELECT act.forget_pii('r-1')$$, '42501', NULL, 'act_reader cannot forget pii');
SELECT throws_ok($$UPDATE act.subscription_rows SET at = 0$$, '42501', NULL, 'act_reader cannot UPDATE subscription rows');
SELECT throws_ok($$SELECT * FROM act.seal()$$, '42501', NULL, 'act_reader cannot seal');
SELECT throws_ok($$UPDATE act.log_state SET size = 0$$, '42501', NULL, 'act_reader cannot UPDATE the log''s tree');
RESET ROLE;

SET ROLE app_admin;
SELECT is((SELECT name FROM act.truncate('[{"stream": "r-1"}]')), '__tombstone__', 'act_admin truncates');
SELECT is(act.reset('["r-sub"]'), 1, 'act_admin resets');
SELECT throws_ok($$DELETE FROM act.correlators$$, '42501', NULL, 'act_admin cannot DELETE correlators directly');
SELECT is((SELECT size FROM act.seal()), 3::bigint, 'act_admin seals (the commit, the tombstone and the removal record)');
SELECT throws_ok($$DELETE FROM act.log_tiles$$, '42501', NULL, 'act_admin cannot DELETE tiles directly');
RESET ROLE;
SET ROLE app_reader;
SELECT is((SELECT leaf_index FROM act.prove_inclusion((SELECT max(id) FROM act.events))), 2::bigint,
  'act_reader proves inclusion');
SELECT is_empty($$SELECT * FROM act.verify_log()$$, 'act_reader verifies the log');
RESET ROLE;

SET ROLE outsider;
SELECT throws_ok($$SELECT * FROM act.query()$$, '42501', NULL, 'a role without a grant cannot read');
RESET ROLE;

SET ROLE app_admin;
SELECT throws_ok($$SET act.notify_payload = 'names'$$, '42501', NULL,
  'only a superuser chooses what notifications carry (act.notify_payload)');
SELECT throws_ok($$SET act.checkpoint_key_file = '/tmp/other.pem'$$, '42501', NULL,
  'only a superuser chooses the key checkpoints are signed with (act.checkpoint_key_file)');
SELECT throws_ok($$SET act.log_origin = 'forged'$$, '42501', NULL, 'only a superuser names the log (act.log_origin)');
SELECT throws_ok($$SET act.test_claim_gate = 1$$, '42501', NULL,
  'only a superuser makes claims wait at the test gate (act.test_claim_gate)');
RESET ROLE;
SET ROLE app_reader;
SELECT throws_ok($$SELECT act.checkpoint()$$, '42501', NULL, 'act_reader cannot checkpoint');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
