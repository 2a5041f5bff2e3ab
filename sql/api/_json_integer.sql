CREATE OR REPLACE FUNCTION act._json_integer(value jsonb, what text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
    RETURN NULL;
  END IF;
  IF jsonb_typeof(value) <> 'number' THEN
    RAISE EXCEPTION '% must be an integer, not %', what, jsonb_typeof(value) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- Nested: SQL does not promise to evaluate OR's operands in order.
  IF value::numeric <> trunc(value::numeric) OR value::numeric NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN
    RAISE EXCEPTION '% must be an integer, not %', what, value::text USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN value::bigint;
END $$;
REVOKE ALL ON FUNCTION act._json_integer(jsonb, text) FROM PUBLIC;
