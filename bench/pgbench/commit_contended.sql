-- A writer that reads the stream's version and commits one event expecting
-- it, as optimistic concurrency does; pgbench retries the whole script on
-- 40001 (--max-tries), so every landed commit counts once.
SELECT act.version('contended') AS version \gset
SELECT count(*) FROM act.commit('contended', '[{"name": "Incremented"}]', '{}', :version);
