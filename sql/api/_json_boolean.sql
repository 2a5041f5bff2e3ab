-- Strict reads of option values: a JSON boolean, a JSON integer; absent or
-- null is NULL. "yes", 1 or "5" are errors, not guesses.
CREATE OR REPLACE FUNCTION act._json_boolean(value jsonb, what text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
    RETURN NULL;
  END IF;
  IF jsonb_typeof(value) <> 'boolean' THEN
    RAISE EXCEPTION '% must be a boolean (true or false), not %', what, jsonb_typeof(value)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value::boolean;
END $$;
REVOKE ALL ON FUNCTION act._json_boolean(jsonb, text) FROM PUBLIC;
