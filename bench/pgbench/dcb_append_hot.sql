-- A decision on one boundary every client shares: read the boundary's newest
-- events, then append on the condition that none came after them. A lost race
-- is 40001, which pgbench --max-tries retries (the whole script).
SELECT coalesce(max(id), -1) AS last FROM act.read('{"items": [{"tags": ["hot"]}]}', greatest(act.horizon() - 100, -1))
\gset
SELECT * FROM act.append('[{"stream": "hot", "name": "Decided", "tags": ["hot"]}]',
  ('{"fail_if_events_match": {"items": [{"tags": ["hot"]}]}, "after": ' || :last || '}')::jsonb);
