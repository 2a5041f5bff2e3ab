DO $$
BEGIN
  IF act.mode() = 'fenced' THEN
    RAISE NOTICE 'pg_act runs in fenced mode: commits pass one fence. Add pg_act to shared_preload_libraries for concurrent commits.';
  END IF;
END $$;
