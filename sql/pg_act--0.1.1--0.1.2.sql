-- pg_act 0.1.1 -> 0.1.2. act.commit runs without a pinned search_path: its
-- statements name every schema, and pinning cost every commit a GUC change.
-- The library takes a per-stream write lock in act.commit and in
-- act._require_latest_head (act.truncate), and inserts without ON CONFLICT.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.1.2'" to load this file. \quit

ALTER FUNCTION act.commit(text, jsonb, jsonb, int) RESET search_path;
