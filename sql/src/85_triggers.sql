-- Triggers, after the functions they call.

-- CREATE EXTENSION inserts the shared row, and pg_restore then copies the
-- dumped one: act._merge_shared_correlator merges the second insert of ''.
CREATE TRIGGER correlators_merge_shared BEFORE INSERT ON act.correlators
  FOR EACH ROW EXECUTE FUNCTION act._merge_shared_correlator();
