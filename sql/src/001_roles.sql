-- Roles. Created before the functions, whose declarations (sql/api/) grant
-- EXECUTE to them; a role that exists already (another database of the
-- cluster has the extension) is kept.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_reader') THEN CREATE ROLE act_reader NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_writer') THEN CREATE ROLE act_writer NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_worker') THEN CREATE ROLE act_worker NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_admin') THEN CREATE ROLE act_admin NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_pii_reader') THEN CREATE ROLE act_pii_reader NOLOGIN; END IF;
  -- Each role includes the one before it.
  IF NOT pg_has_role('act_writer', 'act_reader', 'MEMBER') THEN GRANT act_reader TO act_writer; END IF;
  IF NOT pg_has_role('act_worker', 'act_writer', 'MEMBER') THEN GRANT act_writer TO act_worker; END IF;
  IF NOT pg_has_role('act_admin', 'act_worker', 'MEMBER') THEN GRANT act_worker TO act_admin; END IF;
  -- Personal data is its own grant: no other role includes this one.
  IF NOT pg_has_role('act_pii_reader', 'act_reader', 'MEMBER') THEN GRANT act_reader TO act_pii_reader; END IF;
END $$;
