-- Also refuses a stream of another partition (partitioned mode).
CREATE OR REPLACE FUNCTION act._require_stream(value jsonb, what text) RETURNS text
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) <> 'string' THEN
    RAISE EXCEPTION '% must be a stream name (a JSON string)', what USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF octet_length(value #>> '{}') = 0 OR octet_length(value #>> '{}') > 1000 THEN
    RAISE EXCEPTION '% must be 1 to 1000 bytes long', what USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM act._require_hosted(value #>> '{}');
  RETURN value #>> '{}';
END $$;
-- grant none
