-- The id of the oldest event some subscription with work waits for (not
-- counting blocked rows), as act._pending finds each row's, without finding
-- every row's: a row waits for an event after its watermark, so the rows are
-- read by watermark (their partial index) until none can wait for an older
-- one, or rows_at_most rows were read: then it is the oldest the rows
-- furthest behind wait for. Wide rows wait for the first event after their
-- watermark: only the lowest watermark counts.
CREATE OR REPLACE FUNCTION act._oldest_waiting() RETURNS bigint
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp SET enable_seqscan = off SET jit = off AS $$
DECLARE
  best bigint;
  row_at bigint;      -- the watermark whose first following event is first_after
  first_after bigint;
  waiting bigint;
  row record;
  rows_looked_at int := 0;
  -- A bound on the cost: rows that share one watermark can each wait for
  -- any later event, so nothing else ends the walk early.
  rows_at_most CONSTANT int := 100;
BEGIN
  SELECT e.id INTO best FROM act.events e
   WHERE e.id > (SELECT min(r.at) FROM (SELECT m.class, max(m.mark) AS mark FROM act.wide_marks m GROUP BY m.class) k
                   JOIN act.subscription_rows r ON r.class = k.class AND NOT r.blocked AND r.at < k.mark
                                                AND k.mark > coalesce(r.class_floor, -1))
   ORDER BY e.id LIMIT 1;
  FOR row IN SELECT r.at, r.source FROM act.subscription_rows r WHERE NOT r.blocked AND r.at < r.correlated_at
              ORDER BY r.at LOOP
    IF row_at IS DISTINCT FROM row.at THEN
      row_at := row.at;
      SELECT e.id INTO first_after FROM act.events e WHERE e.id > row.at ORDER BY e.id LIMIT 1;
    END IF;
    -- No row from here on waits for an event before first_after.
    EXIT WHEN first_after IS NULL OR best <= first_after OR rows_looked_at = rows_at_most;
    rows_looked_at := rows_looked_at + 1;
    IF row.source IS NOT NULL AND NOT act._is_pattern(row.source) THEN
      SELECT e.id INTO waiting FROM act.events e
       WHERE e.stream = row.source
         AND e.version >= coalesce((SELECT p.version + 1 FROM act.events p WHERE p.id = row.at AND p.stream = row.source), 0)
         AND e.id > row.at
       ORDER BY e.version LIMIT 1;
    ELSE
      waiting := first_after;
    END IF;
    best := least(best, waiting);
  END LOOP;
  RETURN best;
END $$;
-- grant none
