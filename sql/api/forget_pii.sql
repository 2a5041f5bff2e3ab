CREATE OR REPLACE FUNCTION act.forget_pii(stream text) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  forgotten bigint;
BEGIN
  IF forget_pii.stream IS NULL THEN
    RAISE EXCEPTION 'stream must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  -- Checked under the lock act.set_partition's conflicts with: taking it
  -- brought in a setting committed while this call waited (as act.commit).
  LOCK TABLE act.events IN ROW EXCLUSIVE MODE;
  PERFORM act._require_hosted(forget_pii.stream);
  UPDATE act.events e SET pii = NULL WHERE e.stream = forget_pii.stream AND e.pii IS NOT NULL;
  GET DIAGNOSTICS forgotten = ROW_COUNT;
  RETURN forgotten;
END $$;
-- grant act_writer: Erases the pii of every event of a stream; the hash chain stays valid
