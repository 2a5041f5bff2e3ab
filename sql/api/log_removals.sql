CREATE OR REPLACE FUNCTION act.log_removals()
RETURNS TABLE(record_id bigint, record_position bigint, removed bigint, positions int8multirange)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT r.record_id, act.log_position(r.record_id),
         (SELECT sum(upper(run) - lower(run)) FROM unnest(r.positions) AS run)::bigint, r.positions
    FROM act.log_removals r ORDER BY r.record_id
$$;
-- grant act_reader: The removal records: each record event's id and entry position (NULL until sealed), how many entries it removed and their positions
