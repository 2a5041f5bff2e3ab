-- The plain baseline for commit_contended.sql: a writer reads the highest
-- version of a table with a unique (stream, version) key and inserts the next
-- one; a taken version is raised as 40001 so pgbench retries the script the
-- same way (--max-tries). No chain, no marks, no horizon.
SELECT coalesce(max(version), -1) AS version FROM plain_contended WHERE stream = 'contended' \gset
SELECT plain_contended_append('contended', :version);
