-- An invalid pattern is refused before any row is read (2201B), with a
-- message naming the argument and no internal statement.
CREATE OR REPLACE FUNCTION act._require_regex(pattern text, what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM '' ~ pattern;
EXCEPTION WHEN invalid_regular_expression THEN
  RAISE EXCEPTION '% is not a valid regular expression: %', what, SQLERRM USING ERRCODE = 'invalid_regular_expression';
END $$;
-- grant none
