-- Per lane, the subscriptions with work, blocked, leased and with an expired
-- lease (act.status, act.metrics): the rows of the work set and the blocked
-- rows as their partial indexes give them, without looking up what each row
-- waits for (act._pending does that for act.lag). A blocked row keeps the
-- lease it was blocked under: it counts as blocked and leased, never expired.
CREATE OR REPLACE FUNCTION act._work_counts() RETURNS TABLE(lane text, with_work bigint, blocked bigint, leased bigint,
  expired_leases bigint)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp SET enable_seqscan = off
BEGIN ATOMIC
  WITH rows AS (
    (SELECT r.stream, r.lane, r.blocked, r.leased_by, r.leased_until FROM act.subscription_rows r
      WHERE NOT r.blocked AND r.at < r.correlated_at
     UNION
     SELECT r.stream, r.lane, r.blocked, r.leased_by, r.leased_until
       FROM (SELECT m.class, max(m.mark) AS mark FROM act.wide_marks m GROUP BY m.class) k
       JOIN act.subscription_rows r ON r.class = k.class AND NOT r.blocked AND r.at < k.mark
                                    AND k.mark > coalesce(r.class_floor, -1))
    UNION ALL
    SELECT r.stream, r.lane, r.blocked, r.leased_by, r.leased_until FROM act.subscription_rows r WHERE r.blocked
  )
  SELECT w.lane, count(*) FILTER (WHERE NOT w.blocked), count(*) FILTER (WHERE w.blocked),
         count(*) FILTER (WHERE w.leased_until > clock_timestamp()),
         count(*) FILTER (WHERE NOT w.blocked AND w.leased_by IS NOT NULL AND w.leased_until <= clock_timestamp())
    FROM rows w
   GROUP BY w.lane;
END;
-- grant none
