-- The subscriptions with work or blocked, each with its work mark (wide
-- marks included) and the oldest event it has yet to handle: for a literal
-- source the event after its watermark in that stream (found through the
-- watermark's own event), otherwise the first event after the watermark in
-- the log. Events that are not work for the row (other names) are not
-- skipped, so the age is an upper bound.
CREATE OR REPLACE FUNCTION act._pending() RETURNS TABLE(stream text, lane text, at bigint, work_mark bigint, blocked boolean,
  error text, leased_by text, leased_until timestamptz, retry int, priority int, waiting_id bigint, waiting_since timestamptz)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
BEGIN ATOMIC
  WITH candidates AS (
    SELECT r.* FROM act.subscription_rows r WHERE NOT r.blocked AND r.at < r.correlated_at
    UNION
    SELECT r.* FROM act.subscription_rows r WHERE r.blocked
    UNION
    SELECT r.* FROM (SELECT m.class, max(m.mark) AS mark FROM act.wide_marks m GROUP BY m.class) k
      JOIN act.subscription_rows r ON r.class = k.class AND NOT r.blocked AND r.at < k.mark
                                   AND k.mark > coalesce(r.class_floor, -1)
  ), marked AS (
    SELECT c.*, greatest(c.correlated_at, (SELECT max(m.mark) FROM act.wide_marks m WHERE m.class = c.class
                                            HAVING max(m.mark) > coalesce(c.class_floor, -1))) AS mark,
           c.source IS NOT NULL AND NOT act._is_pattern(c.source) AS literal
      FROM candidates c
  ), waiting AS (
    SELECT m.*,
           CASE WHEN m.literal THEN
             (SELECT e.id FROM act.events e
               WHERE e.stream = m.source
                 AND e.version >= coalesce((SELECT p.version + 1 FROM act.events p WHERE p.id = m.at AND p.stream = m.source), 0)
                 AND e.id > m.at
               ORDER BY e.version LIMIT 1)
           ELSE (SELECT e.id FROM act.events e WHERE e.id > m.at ORDER BY e.id LIMIT 1) END AS waiting_id
      FROM marked m
  )
  SELECT w.stream, w.lane, w.at, w.mark, w.blocked, w.error, w.leased_by, w.leased_until, w.retry, w.priority,
         w.waiting_id, (SELECT e.created FROM act.events e WHERE e.id = w.waiting_id)
    FROM waiting w
   WHERE w.blocked OR w.at < w.mark;
END;
-- grant none
