-- Personal data: only act_pii_reader (and the owner) reads the pii sidecar,
-- on every read path: the table, act.query (a worker's drain reads through
-- it), act.query_stats. Other roles read pii as NULL through the functions
-- and cannot select the column.
BEGIN;
SELECT * FROM no_plan();

SELECT has_role('act_pii_reader', 'act_pii_reader exists');
SELECT ok(pg_has_role('act_pii_reader', 'act_reader', 'MEMBER'), 'act_pii_reader includes act_reader');
SELECT ok(NOT pg_has_role(r, 'act_pii_reader', 'MEMBER'), r || ' does not include act_pii_reader')
  FROM unnest(ARRAY['act_reader', 'act_writer', 'act_worker', 'act_admin']) r;

CREATE ROLE app_reader IN ROLE act_reader;
CREATE ROLE app_worker IN ROLE act_worker;
CREATE ROLE app_admin IN ROLE act_admin;
CREATE ROLE app_privacy IN ROLE act_pii_reader;

SELECT count(*) FROM act.commit('person-1', '[{"name": "Registered", "data": {"plan": "gold"}, "pii": {"email": "ann@example.org"}}]');

SET ROLE app_reader;
SELECT throws_ok($$SELECT pii FROM act.events$$, '42501', NULL, 'act_reader cannot select act.events.pii');
SELECT throws_ok($$SELECT * FROM act.events$$, '42501', NULL, 'nor every column of act.events');
SELECT is((SELECT data ->> 'plan' FROM act.events WHERE stream = 'person-1'), 'gold', 'act_reader selects the other columns');
SELECT is((SELECT pii FROM act.query('person-1')), NULL, 'act.query by stream gives act_reader pii NULL');
SELECT is((SELECT pii FROM act.query(after => 0)), NULL, 'act.query after a position gives act_reader pii NULL');
SELECT is((SELECT data ->> 'plan' FROM act.query('person-1')), 'gold', 'and the rest of the event');
SELECT ok((SELECT NOT (head ? 'pii') FROM act.query_stats('["person-1"]')), 'act.query_stats never shows pii');
RESET ROLE;

SET ROLE app_worker;
SELECT is((SELECT pii FROM act.query('person-1', after => -1)), NULL, 'a worker''s drain read gives pii NULL');
RESET ROLE;

SET ROLE app_admin;
SELECT is((SELECT pii FROM act.query('person-1')), NULL, 'act_admin reads pii NULL too');
RESET ROLE;

SET ROLE app_privacy;
SELECT is((SELECT pii ->> 'email' FROM act.query('person-1')), 'ann@example.org', 'act_pii_reader reads pii through act.query');
SELECT is((SELECT pii ->> 'email' FROM act.events WHERE stream = 'person-1'), 'ann@example.org', 'and from the table');
RESET ROLE;

SELECT is((SELECT pii ->> 'email' FROM act.query('person-1')), 'ann@example.org', 'the owner reads pii');

-- A SECURITY DEFINER function of the application's is judged by its caller.
CREATE FUNCTION pg_temp.read_pii() RETURNS jsonb LANGUAGE sql SECURITY DEFINER AS $$
  SELECT pii FROM act.query('person-1')
$$;
GRANT EXECUTE ON FUNCTION pg_temp.read_pii() TO app_reader;
SET ROLE app_reader;
SELECT is(pg_temp.read_pii(), NULL, 'an owner-rights wrapper does not widen what its caller reads');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
