-- The proof an auditor of one stream needs: its latest event in the tree,
-- whose hash chains every version before it. Which event that is:
CREATE OR REPLACE FUNCTION act._stream_proof_target(stream text, tree_size bigint)
RETURNS TABLE(event_id bigint, event_version int, sized bigint)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  latest record;
BEGIN
  IF stream IS NULL THEN
    RAISE EXCEPTION 'stream must not be null' USING ERRCODE = 'null_value_not_allowed';
  END IF;
  sized := coalesce(tree_size, (SELECT s.size FROM act.log_size() s));
  -- Newest first: the first with an entry inside the tree is the one.
  FOR latest IN SELECT e.id, e.version FROM act.events e WHERE e.stream = _stream_proof_target.stream
                 ORDER BY e.version DESC LOOP
    IF act.log_position(latest.id) < sized THEN
      event_id := latest.id;
      event_version := latest.version;
      RETURN NEXT;
      RETURN;
    END IF;
  END LOOP;
  RAISE EXCEPTION 'stream "%" has no event in the tree of % entries', stream, sized
    USING ERRCODE = 'invalid_parameter_value';
END $$;
-- grant none
