-- CREATE EXTENSION inserts the shared row, and pg_restore then copies the
-- dumped one: the second insert of '' updates the first instead of failing.
CREATE OR REPLACE FUNCTION act._merge_shared_correlator() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.key = '' THEN
    UPDATE act.correlators c
       SET at = NEW.at, leased_by = NEW.leased_by, leased_until = NEW.leased_until
     WHERE c.key = '';
    IF FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  RETURN NEW;
END $$;
-- grant none
