-- The race of test/run-dcb-race.sh: every racer tries to be the one that
-- claims each round, with a uniqueness guard on the round's tag. Each round
-- is its own transaction (the procedure commits), so the boundary locks of
-- a round are let go before the next.
CREATE FUNCTION race_round(racer int, round int) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM act.append(
    jsonb_build_array(jsonb_build_object('stream', 'racer-' || racer, 'name', 'Won', 'tags', jsonb_build_array('round:' || round))),
    jsonb_build_object('fail_if_events_match',
      jsonb_build_object('items', jsonb_build_array(jsonb_build_object('types', jsonb_build_array('Won'),
                                                                       'tags', jsonb_build_array('round:' || round))))));
  RETURN true;
EXCEPTION WHEN serialization_failure THEN
  RETURN false;
END $$;

CREATE PROCEDURE race(racer int, rounds int) LANGUAGE plpgsql AS $$
BEGIN
  FOR round IN 1..rounds LOOP
    PERFORM race_round(racer, round);
    COMMIT;
  END LOOP;
END $$;
