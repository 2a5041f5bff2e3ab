-- A JSON boolean option (act._json_of_type).
CREATE OR REPLACE FUNCTION act._json_boolean(value jsonb, what text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN act._json_of_type(value, what, 'boolean', 'a boolean (true or false)')::boolean;
END $$;
-- grant none
