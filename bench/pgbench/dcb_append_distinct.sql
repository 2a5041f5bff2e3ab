-- A conditional act.append on a boundary of the client's own: a uniqueness
-- guard on a fresh tag (the check finds nothing; the locks and the check are
-- what it costs over act.commit).
\set n random(1, 1000000000)
SELECT * FROM act.append(('[{"stream": "dcb-' || :client_id || '", "name": "Decided", "data": {"by": 1}, "tags": ["d:' || :client_id || ':' || :n || '"]}]')::jsonb,
  ('{"fail_if_events_match": {"items": [{"types": ["Decided"], "tags": ["d:' || :client_id || ':' || :n || '"]}]}}')::jsonb);
