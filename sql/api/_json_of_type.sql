-- The one rule behind the strict option readers (_json_boolean,
-- _json_integer): absent or null is NULL, a value of another JSON type is
-- 22023 naming what it should be ("yes", 1 or "5" are errors, not guesses).
CREATE OR REPLACE FUNCTION act._json_of_type(value jsonb, what text, json_type text, described text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
    RETURN NULL;
  END IF;
  IF jsonb_typeof(value) <> json_type THEN
    RAISE EXCEPTION '% must be %, not %', what, described, jsonb_typeof(value) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value;
END $$;
-- grant none
