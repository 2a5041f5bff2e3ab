-- A key the caller's object may not carry is an error (22023), never a
-- silent default: a misspelt "befor" must not close a whole stream.
CREATE OR REPLACE FUNCTION act._require_known_keys(value jsonb, what text, known text[]) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  unknown text;
BEGIN
  SELECT k INTO unknown FROM jsonb_object_keys(value) AS k WHERE k <> ALL (known) ORDER BY k LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION '%: unknown key "%" (known: %)', what, unknown, array_to_string(known, ', ')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
END $$;
-- grant none
