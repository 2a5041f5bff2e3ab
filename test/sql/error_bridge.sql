-- The error bridge: C++ exceptions and Postgres errors leave the backend healthy.
BEGIN;
SELECT * FROM no_plan();

-- 300 failures of each kind, caught in subtransactions like an application would.
CREATE FUNCTION pg_temp.fail_many(kind text, times int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE caught int := 0;
BEGIN
  FOR i IN 1..times LOOP
    BEGIN
      IF kind = 'cpp' THEN
        PERFORM * FROM act.commit('bridge', '[{"name": ""}]');          -- C++ ValidationError
      ELSIF kind = 'pg' THEN
        PERFORM * FROM act.query('(', stream_exact => false);           -- Postgres regex error inside SPI
      ELSE
        PERFORM * FROM act.commit('bridge', '[{"name": "A"}]', '{}', 99);  -- C++ ConcurrencyError after SPI work
      END IF;
    EXCEPTION WHEN OTHERS THEN
      caught := caught + 1;
    END;
  END LOOP;
  RETURN caught;
END $$;

-- Warm the backend's caches (plans, catalog, plpgsql) first, and measure
-- with plain statements only, so nothing but a leak can grow.
CREATE TEMP TABLE warm AS SELECT kind, pg_temp.fail_many(kind, 5) AS caught FROM unnest(ARRAY['cpp', 'pg', 'conflict']) kind;
CREATE TEMP TABLE contexts_before AS SELECT count(*) AS n, sum(total_bytes) AS bytes FROM pg_backend_memory_contexts;
CREATE TEMP TABLE failures AS SELECT kind, pg_temp.fail_many(kind, 300) AS caught FROM unnest(ARRAY['cpp', 'pg', 'conflict']) kind;
CREATE TEMP TABLE contexts_after AS SELECT count(*) AS n, sum(total_bytes) AS bytes FROM pg_backend_memory_contexts;

SELECT is((SELECT caught FROM failures WHERE kind = 'cpp'), 300, 'C++ validation errors are raised as Postgres errors');
SELECT is((SELECT caught FROM failures WHERE kind = 'pg'), 300, 'Postgres errors inside guarded calls come back out');
SELECT is((SELECT caught FROM failures WHERE kind = 'conflict'), 300, 'errors raised while SPI is connected');
SELECT throws_ok($$SELECT * FROM act.query('(', stream_exact => false)$$, '2201B', NULL,
  'a Postgres error keeps its SQLSTATE through the bridge');
SELECT is((SELECT count(*) FROM act.commit('bridge', '[{"name": "A"}]')), 1::bigint,
  'the next call in the same transaction works (no SPI connection leaked)');
SELECT is((SELECT count(*) FROM act.query('bridge')), 1::bigint, 'reads work too');
SELECT cmp_ok((SELECT n FROM contexts_after), '<=', (SELECT n + 10 FROM contexts_before),
  'no memory contexts leaked by 900 failures (a leak per failure would add hundreds)');
SELECT cmp_ok((SELECT bytes FROM contexts_after), '<', (SELECT bytes + 4 * 1024 * 1024 FROM contexts_before),
  'memory did not grow with the failures');

SELECT * FROM finish();
ROLLBACK;
