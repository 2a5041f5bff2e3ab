-- A decision on one boundary every client shares, as a client that keeps its
-- decision model does: read the boundary's events after the last one it
-- folded (:last, which pgbench keeps per client; -D last=-1 starts it), then
-- append on the condition that none came after them. A lost race is 40001,
-- which pgbench --max-tries retries (the whole script: read again, decide
-- again).
SELECT coalesce(max(id), :last) AS last FROM act.read('{"items": [{"tags": ["hot"]}]}', :last)
\gset
SELECT * FROM act.append('[{"stream": "hot", "name": "Decided", "tags": ["hot"]}]',
  ('{"fail_if_events_match": {"items": [{"tags": ["hot"]}]}, "after": ' || :last || '}')::jsonb);
