-- Security: what each role may execute and write, and functions called with a
-- hostile search_path (shadowing functions and operators placed before
-- pg_catalog) behave as with the default one. The shadows come first, before
-- this session has planned any of the extension's statements.
BEGIN;
SELECT * FROM no_plan();

-- Shadows: each would change a result if the extension's SQL resolved names
-- through the caller's search_path.
CREATE SCHEMA evil;
CREATE FUNCTION evil.text_eq(a text, b text) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.text_eq);
CREATE FUNCTION evil.text_regex(a text, b text) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR evil.~ (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.text_regex);
CREATE FUNCTION evil.jsonb_field(a jsonb, b text) RETURNS text LANGUAGE sql IMMUTABLE AS $$SELECT 'shadow'$$;
CREATE OPERATOR evil.->> (LEFTARG = jsonb, RIGHTARG = text, FUNCTION = evil.jsonb_field);
CREATE FUNCTION evil.now() RETURNS timestamptz LANGUAGE sql AS $$SELECT '2000-01-01 00:00:00+00'::timestamptz$$;
CREATE FUNCTION evil.jsonb_typeof(jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$SELECT 'array'$$;
CREATE FUNCTION public.jsonb_build_object(text, bigint, text, text, text, integer, text, text, text, jsonb, text, jsonb,
  text, timestamptz) RETURNS jsonb LANGUAGE sql AS $$SELECT '{"shadowed": true}'::jsonb$$;
CREATE FUNCTION public.unnest(anyarray) RETURNS SETOF anyelement LANGUAGE plpgsql AS 'BEGIN RETURN; END';
-- A temp table named like the log.
CREATE TEMP TABLE events (id bigint, stream text, version int, name text);

CREATE FUNCTION pg_temp.sqlstate_of(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN '00000';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END $$;

-- Every call under the hostile path keeps its result in a temp table; the
-- assertions run after RESET, since pgTAP itself would see the shadows.
SET search_path = evil, public, pg_temp, pg_catalog;
CREATE TEMP TABLE h_shadowed AS SELECT 'x'::text = 'y'::text AS text_eq, now() AS now, ARRAY(SELECT unnest(ARRAY[1])) AS unnested;
CREATE TEMP TABLE h_commit_1 AS SELECT * FROM act.commit('sp-1', '[{"name": "A"}, {"name": "B"}]', '{}', -1);
CREATE TEMP TABLE h_commit_2 AS SELECT * FROM act.commit('sp-2', '[{"name": "C"}]', '{}', -1);
CREATE TEMP TABLE h_version AS SELECT act.version('sp-missing') AS version, act.version('sp-1') AS present;
CREATE TEMP TABLE h_query AS SELECT * FROM act.query('sp-1');
CREATE TEMP TABLE h_query_pattern AS SELECT * FROM act.query('^sp-1$', stream_exact => false);
CREATE TEMP TABLE h_verify AS SELECT * FROM act.verify();
CREATE TEMP TABLE h_stats AS SELECT * FROM act.query_stats('["sp-1"]');
CREATE TEMP TABLE h_stats_bad AS SELECT pg_temp.sqlstate_of($$SELECT * FROM act.query_stats('"sp-1"')$$) AS code;
CREATE TEMP TABLE h_subscribe AS
  SELECT * FROM act.subscribe('[{"stream": "sp-sub", "source": "sp-1"}, {"stream": "sp-pattern", "source": "^zz"}]');
CREATE TEMP TABLE h_commit_3 AS SELECT * FROM act.commit('sp-3', '[{"name": "D"}]');
CREATE TEMP TABLE h_claim AS SELECT * FROM act.claim(10, 0, 'w', 60000);
CREATE TEMP TABLE h_lease AS SELECT leased_until FROM act.subscriptions;
CREATE TEMP TABLE h_ack AS SELECT * FROM act.ack('[{"stream": "sp-sub", "by": "w", "at": 2}]');
CREATE TEMP TABLE h_prioritize AS SELECT act.prioritize('["sp-pattern"]', 3) AS changed;
CREATE TEMP TABLE h_streams AS SELECT * FROM act.query_streams('{}');
CREATE TEMP TABLE h_truncate AS SELECT * FROM act.truncate('[{"stream": "sp-2"}]');
CREATE TEMP TABLE h_forget AS SELECT act.forget_pii('sp-1') AS forgotten;
CREATE TEMP TABLE h_horizon AS SELECT act.horizon() AS horizon, (SELECT count(*) FROM act.horizon_holders()) AS holders;
-- A commit that marks a literal-source and a source-less subscription (act.commit's own SQL).
CREATE TEMP TABLE h_subscribe_all AS
  SELECT * FROM act.subscribe('[{"stream": "sp-all"}, {"stream": "sp-sub-4", "source": "sp-4"}]');
CREATE TEMP TABLE h_commit_4 AS SELECT * FROM act.commit('sp-4', '[{"name": "E"}]');
CREATE TEMP TABLE h_marks AS SELECT stream, correlated_at FROM act.subscriptions;
-- Keyed commits: with = always true or ->> shadowed, a lookup that resolved
-- them through the path would take the key as another stream's or miss it.
CREATE TEMP TABLE h_keyed_1 AS SELECT * FROM act.commit('sp-5', '[{"name": "K"}]', '{"idempotency_key": "k-1"}');
CREATE TEMP TABLE h_keyed_2 AS SELECT * FROM act.commit('sp-6', '[{"name": "K"}]', '{"idempotency_key": "k-1"}');
CREATE TEMP TABLE h_keyed_3 AS SELECT * FROM act.commit('sp-5', '[{"name": "K"}]', '{"idempotency_key": "k-1"}');
CREATE TEMP TABLE h_keyed_4 AS SELECT * FROM act.commit_by_key('sp-6', 'k-1');
-- act.widen: with = always true, it would find another row and back-fill
-- from another stream's events.
CREATE TEMP TABLE h_subscribe_named AS
  SELECT * FROM act.subscribe('[{"stream": "sp-named", "source": "sp-1", "names": ["A"]}, {"stream": "sp-wide", "names": ["A"]}]');
CREATE TEMP TABLE h_widen AS
  SELECT * FROM act.widen('sp-named', '["B"]') UNION ALL SELECT * FROM act.widen('sp-wide', '["E"]');
RESET search_path;

SELECT results_eq('SELECT text_eq, now, unnested FROM h_shadowed',
  $$VALUES (true, '2000-01-01 00:00:00+00'::timestamptz, '{}'::int[])$$,
  'the shadows are in effect for the caller: = on text is always true, now() is fixed, unnest yields nothing');
SELECT results_eq('SELECT version, name FROM h_commit_1 ORDER BY version', $$VALUES (0, 'A'), (1, 'B')$$, 'commit: a new stream');
SELECT results_eq('SELECT stream, version FROM h_keyed_2', $$VALUES ('sp-6', 0)$$,
  'a keyed commit: the same key on another stream writes');
SELECT results_eq('SELECT id FROM h_keyed_3 UNION ALL SELECT id FROM h_keyed_4',
  'SELECT id FROM h_keyed_1 UNION ALL SELECT id FROM h_keyed_2', 'a keyed retry and act.commit_by_key find the key''s own commit');
SELECT results_eq('SELECT stream, names, added, at, correlated_at FROM h_widen ORDER BY stream',
  $$VALUES ('sp-named'::text, ARRAY['A', 'B'], ARRAY['B'], -1::bigint, 2::bigint), ('sp-wide', ARRAY['A', 'E'], ARRAY['E'], -1, 7)$$,
  'act.widen widens the row it was given and back-fills from its source''s events of the added names');
SELECT results_eq('SELECT version, name FROM h_commit_2', $$VALUES (0, 'C')$$,
  'commit: another new stream (the first one''s head is not taken for it)');
SELECT results_eq('SELECT version, present FROM h_version', $$VALUES (-1, 1)$$,
  'act.version of a missing stream and of one with two events (the index, not the shadowed =)');
SELECT is((SELECT array_agg(name ORDER BY version) FROM h_query), ARRAY['A', 'B'], 'act.query by exact name reads one stream');
SELECT is((SELECT count(*) FROM h_query_pattern), 2::bigint, 'act.query by pattern');
SELECT results_eq('SELECT stream, valid FROM h_verify ORDER BY stream', $$VALUES ('sp-1', true), ('sp-2', true)$$,
  'act.verify reads the log (not the temp table named events) and the chains verify');
SELECT is((SELECT head ->> 'name' FROM h_stats), 'B', 'act.query_stats builds heads with the real jsonb_build_object');
SELECT is((SELECT code FROM h_stats_bad), '22023', 'act.query_stats validates with the real jsonb_typeof');
SELECT is((SELECT subscribed FROM h_subscribe), 2, 'act.subscribe');
SELECT is((SELECT array_agg(stream) FROM h_claim), ARRAY['sp-sub'],
  'act.claim leases only the subscription with work (sources matched with the real = and ~)');
SELECT ok((SELECT bool_and(leased_until IS NULL OR leased_until > now()) FROM h_lease), 'leases run from the real now()');
SELECT results_eq('SELECT stream, at FROM h_ack', $$VALUES ('sp-sub', 2::bigint)$$, 'act.ack');
SELECT is((SELECT changed FROM h_prioritize), 1, 'act.prioritize');
SELECT is((SELECT count(*) FROM h_streams), 2::bigint, 'act.query_streams');
SELECT results_eq('SELECT stream, name FROM h_truncate', $$VALUES ('sp-2', '__tombstone__')$$,
  'act.truncate closes the stream it was given (->> is not shadowed)');
SELECT is(act.version('sp-1'), 1, 'and no other');
SELECT is((SELECT forgotten FROM h_forget), 0::bigint, 'act.forget_pii');
SELECT results_eq('SELECT horizon >= 4, holders FROM h_horizon', $$VALUES (true, 1::bigint)$$,
  'act.horizon and act.horizon_holders (this open transaction holds the horizon)');

-- Roles (docs/reference.md, "Roles"): each includes the one before it.
CREATE ROLE app_reader IN ROLE act_reader;
CREATE ROLE app_writer IN ROLE act_writer;
CREATE ROLE app_worker IN ROLE act_worker;
CREATE ROLE app_admin IN ROLE act_admin;

-- The exact EXECUTE grants of the public functions, per role.
SELECT results_eq($$
  SELECT r.rolname::text COLLATE "default", p.proname::text COLLATE "default"
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    CROSS JOIN (SELECT rolname FROM pg_roles WHERE rolname IN ('app_reader', 'app_writer', 'app_worker', 'app_admin')) r
   WHERE n.nspname = 'act' AND has_function_privilege(r.rolname, p.oid, 'EXECUTE')
   ORDER BY 1, 2$$,
  $$SELECT r, f FROM (VALUES
      ('app_admin', 'append'), ('app_admin', 'read'), ('app_reader', 'read'), ('app_worker', 'append'), ('app_worker', 'read'),
      ('app_writer', 'append'), ('app_writer', 'read'),
      ('app_admin', 'ack'), ('app_admin', 'add_checkpoint_signature'), ('app_admin', 'block'),
      ('app_admin', 'checkpoint'), ('app_admin', 'checkpoint'), ('app_admin', 'claim'), ('app_admin', 'claim_events'), ('app_admin', 'commit'), ('app_admin', 'commit_by_key'),
      ('app_admin', 'defer'), ('app_admin', 'event_hash'), ('app_admin', 'forget_pii'), ('app_admin', 'horizon'),
      ('app_admin', 'horizon_holders'), ('app_admin', 'hosted_partition'), ('app_admin', 'lag'), ('app_admin', 'log_entries'),
      ('app_admin', 'log_position'), ('app_admin', 'log_removals'), ('app_admin', 'log_size'), ('app_admin', 'log_wait'),
      ('app_admin', 'max_event_id'), ('app_admin', 'merkle_root'), ('app_admin', 'metrics'), ('app_admin', 'mode'),
      ('app_admin', 'partition_of'), ('app_admin', 'prioritize'), ('app_admin', 'prove_consistency'), ('app_admin', 'prove_inclusion'),
      ('app_admin', 'prove_stream'), ('app_admin', 'query'), ('app_admin', 'query_stats'),
      ('app_admin', 'query_streams'), ('app_admin', 'register_log_key'), ('app_admin', 'release'), ('app_admin', 'reset'),
      ('app_admin', 'reset_counters'), ('app_admin', 'seal'), ('app_admin', 'set_partition'), ('app_admin', 'status'), ('app_admin', 'subscribe'), ('app_admin', 'take_over'),
      ('app_admin', 'truncate'), ('app_admin', 'unblock'), ('app_admin', 'verify'), ('app_admin', 'verify_consistency'), ('app_admin', 'verify_inclusion'), ('app_admin', 'verify_log'),
      ('app_admin', 'version'), ('app_admin', 'wait'), ('app_admin', 'widen'), ('app_reader', 'commit_by_key'), ('app_reader', 'event_hash'), ('app_reader', 'horizon'),
      ('app_reader', 'horizon_holders'), ('app_reader', 'hosted_partition'), ('app_reader', 'lag'), ('app_reader', 'log_entries'),
      ('app_reader', 'log_position'), ('app_reader', 'log_removals'), ('app_reader', 'log_size'), ('app_reader', 'log_wait'),
      ('app_reader', 'max_event_id'), ('app_reader', 'merkle_root'), ('app_reader', 'metrics'),
      ('app_reader', 'mode'), ('app_reader', 'partition_of'), ('app_reader', 'prove_consistency'), ('app_reader', 'prove_inclusion'),
      ('app_reader', 'prove_stream'), ('app_reader', 'query'), ('app_reader', 'query_stats'),
      ('app_reader', 'query_streams'), ('app_reader', 'status'), ('app_reader', 'verify'),
      ('app_reader', 'verify_consistency'), ('app_reader', 'verify_inclusion'), ('app_reader', 'verify_log'), ('app_reader', 'version'), ('app_reader', 'wait'), ('app_worker', 'ack'),
      ('app_worker', 'block'), ('app_worker', 'claim'), ('app_worker', 'claim_events'), ('app_worker', 'commit'), ('app_worker', 'commit_by_key'),
      ('app_worker', 'event_hash'), ('app_worker', 'forget_pii'), ('app_worker', 'horizon'),
      ('app_worker', 'horizon_holders'), ('app_worker', 'hosted_partition'), ('app_worker', 'lag'), ('app_worker', 'log_entries'),
      ('app_worker', 'log_position'), ('app_worker', 'log_removals'), ('app_worker', 'log_size'), ('app_worker', 'log_wait'),
      ('app_worker', 'max_event_id'), ('app_worker', 'merkle_root'), ('app_worker', 'metrics'),
      ('app_worker', 'mode'), ('app_worker', 'partition_of'), ('app_worker', 'prove_consistency'), ('app_worker', 'prove_inclusion'),
      ('app_worker', 'prove_stream'), ('app_worker', 'query'), ('app_worker', 'query_stats'),
      ('app_worker', 'query_streams'), ('app_worker', 'status'), ('app_worker', 'subscribe'),
      ('app_worker', 'verify'), ('app_worker', 'verify_consistency'), ('app_worker', 'verify_inclusion'), ('app_worker', 'verify_log'), ('app_worker', 'version'), ('app_worker', 'wait'),
      ('app_worker', 'take_over'), ('app_worker', 'widen'),
      ('app_writer', 'commit'), ('app_writer', 'commit_by_key'), ('app_writer', 'event_hash'), ('app_writer', 'forget_pii'), ('app_writer', 'horizon'),
      ('app_writer', 'horizon_holders'), ('app_writer', 'hosted_partition'), ('app_writer', 'lag'), ('app_writer', 'log_entries'),
      ('app_writer', 'log_position'), ('app_writer', 'log_removals'), ('app_writer', 'log_size'), ('app_writer', 'log_wait'),
      ('app_writer', 'max_event_id'), ('app_writer', 'merkle_root'), ('app_writer', 'metrics'),
      ('app_writer', 'mode'), ('app_writer', 'partition_of'), ('app_writer', 'prove_consistency'), ('app_writer', 'prove_inclusion'),
      ('app_writer', 'prove_stream'), ('app_writer', 'query'), ('app_writer', 'query_stats'),
      ('app_writer', 'query_streams'), ('app_writer', 'status'), ('app_writer', 'verify'),
      ('app_writer', 'verify_consistency'), ('app_writer', 'verify_inclusion'), ('app_writer', 'verify_log'), ('app_writer', 'version'), ('app_writer', 'wait')) g(r, f) ORDER BY 1, 2$$,
  'each role executes exactly its functions; no role executes an internal (_) function');

-- No application role (nor PUBLIC) may change any table, view or sequence
-- of schema act directly, create objects in it or own anything in it.
SELECT is((SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             CROSS JOIN unnest(ARRAY['public', 'act_reader', 'act_writer', 'act_worker', 'act_admin',
                                     'app_reader', 'app_writer', 'app_worker', 'app_admin']) r(role)
             CROSS JOIN unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) p(privilege)
            WHERE n.nspname = 'act' AND c.relkind IN ('r', 'v', 'p')
              AND has_table_privilege(r.role, c.oid, p.privilege)), 0::bigint,
  'no role may INSERT, UPDATE, DELETE, TRUNCATE, reference or trigger on any table or view of schema act');
SELECT is((SELECT count(*) FROM unnest(ARRAY['public', 'act_reader', 'act_writer', 'act_worker', 'act_admin']) r(role)
            WHERE has_sequence_privilege(r.role, 'act.events_id_seq', 'USAGE')
               OR has_sequence_privilege(r.role, 'act.events_id_seq', 'UPDATE')), 0::bigint,
  'no role may take or set ids from the sequence');
SELECT is((SELECT count(*) FROM unnest(ARRAY['public', 'act_reader', 'act_writer', 'act_worker', 'act_admin']) r(role)
            WHERE has_schema_privilege(r.role, 'act', 'CREATE')), 0::bigint, 'no role may create objects in schema act');
SELECT is((SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'act' AND pg_has_role('app_admin', c.relowner, 'USAGE')), 0::bigint,
  'no application role owns (or inherits the owner of) an object of schema act');

-- The same, tried: every role's attempt to change the log directly fails.
CREATE FUNCTION pg_temp.sqlstate_as(role name, statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SET LOCAL ROLE %I', role);
  BEGIN
    EXECUTE statement;
  EXCEPTION WHEN OTHERS THEN
    RESET ROLE;
    RETURN SQLSTATE;
  END;
  RESET ROLE;
  RETURN '00000';
END $$;
SELECT results_eq($$
  SELECT r, s, pg_temp.sqlstate_as(r, s)
    FROM unnest(ARRAY['app_reader', 'app_writer', 'app_worker', 'app_admin']) r
   CROSS JOIN unnest(ARRAY['UPDATE act.events SET data = ''{"x": 1}''', 'DELETE FROM act.events', 'TRUNCATE act.events',
                           'UPDATE act.subscription_rows SET at = 0', 'DELETE FROM act.correlators',
                           'SELECT setval(''act.events_id_seq'', 1)']) s
   ORDER BY 1, 2$$,
  $$SELECT r, s, '42501' FROM unnest(ARRAY['app_reader', 'app_writer', 'app_worker', 'app_admin']) r
   CROSS JOIN unnest(ARRAY['UPDATE act.events SET data = ''{"x": 1}''', 'DELETE FROM act.events', 'TRUNCATE act.events',
                           'UPDATE act.subscription_rows SET at = 0', 'DELETE FROM act.correlators',
                           'SELECT setval(''act.events_id_seq'', 1)']) s
   ORDER BY 1, 2$$,
  'no application role can UPDATE, DELETE or TRUNCATE the tables or set the sequence (42501)');
SELECT is((SELECT count(*) FROM act.events), 8::bigint, 'the log is unchanged (a truncate''s removal record included)');

SELECT is(pg_temp.sqlstate_as('app_reader', $$SELECT * FROM act.commit('r', '[{"name": "A"}]')$$), '42501',
  'act_reader cannot commit');
SELECT is(pg_temp.sqlstate_as('app_reader', $$SELECT act.forget_pii('sp-1')$$), '42501', 'act_reader cannot forget pii');
SELECT is(pg_temp.sqlstate_as('app_reader', $$SELECT * FROM act.subscribe('[]')$$), '42501', 'act_reader cannot subscribe');
SELECT is(pg_temp.sqlstate_as('app_writer', $$SELECT * FROM act.claim(1, 0, 'w', 1000)$$), '42501', 'act_writer cannot claim');
SELECT is(pg_temp.sqlstate_as('app_writer', $$SELECT * FROM act.widen('sp-named', '["C"]')$$), '42501', 'act_writer cannot widen');
SELECT is(pg_temp.sqlstate_as('app_writer', $$SELECT act.reset('["sp-sub"]')$$), '42501', 'act_writer cannot reset');
SELECT is(pg_temp.sqlstate_as('app_writer', $$SELECT * FROM act.ack('[{"stream": "sp-sub", "by": "w", "at": 3}]')$$), '42501',
  'act_writer cannot ack');
SELECT is(pg_temp.sqlstate_as('app_worker', $$SELECT act.unblock('{}')$$), '42501', 'act_worker cannot unblock');
SELECT is(pg_temp.sqlstate_as('app_worker', $$SELECT act.release('{}')$$), '42501', 'act_worker cannot release');
SELECT is(pg_temp.sqlstate_as('app_worker', $$SELECT * FROM act.truncate('[{"stream": "sp-1"}]')$$), '42501',
  'act_worker cannot truncate');
SELECT is(pg_temp.sqlstate_as('app_admin', $$SELECT act._before_taking_ids()$$), '42501',
  'act_admin cannot call an internal function');
SELECT is(pg_temp.sqlstate_as('app_writer', $$SELECT count(*) FROM act.commit('w', '[{"name": "A"}]')$$), '00000',
  'act_writer commits');
SELECT is(pg_temp.sqlstate_as('app_worker', $$SELECT count(*) FROM act.claim(1, 0, 'w2', 1000)$$), '00000', 'act_worker claims');
SELECT is(pg_temp.sqlstate_as('app_worker', $$SELECT * FROM act.widen('sp-named', '["C"]')$$), '00000', 'act_worker widens');
SELECT is(pg_temp.sqlstate_as('app_admin', $$SELECT act.reset('["sp-sub"]')$$), '00000', 'act_admin resets');
SELECT is(pg_temp.sqlstate_as('app_admin', $$SELECT act.release('["sp-sub"]')$$), '00000', 'act_admin releases');
SELECT is((SELECT count(*) FROM act.events), 9::bigint, 'only the granted commit wrote');

-- pg_act's locks cannot be taken by other roles: the commit fence and the
-- stream locks are advisory lock tags of kinds no SQL function can take
-- (objsubid 3 to 6; isolation spec lock_keys shows commits, subscribes and
-- truncates going past a session that holds every two-key advisory lock
-- pg_act used to take), and the registry lock is the view act.subscriptions
-- locked in modes LOCK TABLE grants only to its owner.
SELECT is(pg_temp.sqlstate_as('app_admin', 'LOCK TABLE act.subscriptions IN SHARE MODE'), '42501',
  'act_admin cannot lock the registry against commits');
SELECT is(pg_temp.sqlstate_as('app_reader', 'LOCK TABLE act.subscriptions IN ACCESS SHARE MODE'), '00000',
  'a reader may lock the view ACCESS SHARE (isolation spec lock_keys shows that holds no commit or subscribe back)');
SELECT is((SELECT count(*) FROM act.commit('lock-kinds', '[{"name": "A"}]')), 1::bigint, 'a commit, whose locks last until ROLLBACK');
SELECT results_eq($$SELECT DISTINCT objsubid::int FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY 1$$,
  ARRAY[3, 4, 6],
  'the advisory locks this transaction holds are all of pg_act''s own kinds (stream 3; 4: the fence in fenced mode, the sealer''s lock act.truncate took; 6: an event name''s boundary key)');
SELECT ok(EXISTS (SELECT FROM pg_locks WHERE locktype = 'relation' AND pid = pg_backend_pid() AND granted
                   AND relation = 'act.subscriptions'::regclass AND mode = 'RowExclusiveLock'),
  'the commit holds the registry lock: ROW EXCLUSIVE on act.subscriptions (nothing else here can take it)');

SELECT results_eq('SELECT stream, coalesce(correlated_at = (SELECT id FROM h_commit_4), false) FROM h_marks ORDER BY stream',
  $$VALUES ('sp-all', true), ('sp-pattern', false), ('sp-sub', false), ('sp-sub-4', true)$$,
  'commit marks exactly the subscriptions whose source matches (not every row, as the shadowed = would)');
SELECT * FROM finish();
ROLLBACK;
