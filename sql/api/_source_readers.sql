-- The streams of the subscription rows whose source is NULL or matches one of
-- `streams` as a regular expression (act.query_streams' source_matches). A
-- literal source holds none of the pattern characters, so it matches exactly
-- the streams it is a substring of: those substrings, at the lengths literal
-- sources have, are looked up by index instead of testing every row. A few
-- rows (ROWS 10): the caller fetches them by key rather than scanning.
CREATE OR REPLACE FUNCTION act._source_readers(streams text[]) RETURNS SETOF text
LANGUAGE sql STABLE ROWS 10 SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
  -- Without JIT: seqscans off make every plan look costly enough to compile.
  SET jit = off
BEGIN ATOMIC
  WITH RECURSIVE lengths(n) AS (
    SELECT min(length(r.source)) FROM act.subscription_rows r WHERE NOT act._is_pattern(r.source)
    UNION ALL
    SELECT (SELECT min(length(r.source)) FROM act.subscription_rows r
             WHERE NOT act._is_pattern(r.source) AND length(r.source) > l.n)
      FROM lengths l WHERE l.n IS NOT NULL
  )
  SELECT r.stream FROM act.subscription_rows r
   WHERE (r.source IS NULL OR act._is_pattern(r.source))
     AND (r.source IS NULL OR EXISTS (SELECT 1 FROM unnest(streams) AS m(stream) WHERE m.stream COLLATE "C" ~ r.source))
  UNION ALL
  -- An array, not a join: each piece is one probe of the source index.
  SELECT r.stream FROM act.subscription_rows r
   WHERE NOT act._is_pattern(r.source)
     AND r.source = ANY (ARRAY(SELECT DISTINCT substr(m.stream, i, l.n)
                                 FROM unnest(streams) AS m(stream), lengths l,
                                      generate_series(1, length(m.stream) - l.n + 1) AS i
                                WHERE l.n IS NOT NULL));
END;
-- grant none
