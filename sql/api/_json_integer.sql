-- A JSON integer option (act._json_of_type) that fits a bigint.
CREATE OR REPLACE FUNCTION act._json_integer(value jsonb, what text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  number numeric := act._json_of_type(value, what, 'number', 'an integer')::numeric;
BEGIN
  -- Nested: SQL does not promise to evaluate OR's operands in order.
  IF number <> trunc(number) OR number NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN
    RAISE EXCEPTION '% must be an integer, not %', what, value::text USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN number::bigint;
END $$;
-- grant none
