-- 1,000,000 events in 100,000 boundaries of 10 events each (tags
-- boundary:1 .. boundary:100000), committed 1,000 at a time, each batch in
-- a transaction of its own: a writer holds one lock per tag it writes until
-- its transaction ends, and the lock table is finite.
DO $$
BEGIN
  FOR batch IN 0..999 LOOP
    PERFORM count(*) FROM act.commit('setup-' || batch,
      (SELECT jsonb_agg(jsonb_build_object('name', 'Decided', 'tags', jsonb_build_array('boundary:' || (batch * 100 + i % 100 + 1))))
         FROM generate_series(0, 999) i));
    COMMIT;
  END LOOP;
END $$;
