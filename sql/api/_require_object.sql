CREATE OR REPLACE FUNCTION act._require_object(value jsonb, what text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NOT NULL AND jsonb_typeof(value) <> 'object' THEN
    RAISE EXCEPTION '% must be a JSON object, not %', what, jsonb_typeof(value) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value;
END $$;
-- grant none
