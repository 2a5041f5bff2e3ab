-- One act.commit of ten events to the client's own stream; the ten committed
-- rows come back, as in commit_single.sql.
SELECT * FROM act.commit('bench10-' || :client_id,
  '[{"name": "E", "data": {"i": 0}}, {"name": "E", "data": {"i": 1}}, {"name": "E", "data": {"i": 2}}, {"name": "E", "data": {"i": 3}}, {"name": "E", "data": {"i": 4}}, {"name": "E", "data": {"i": 5}}, {"name": "E", "data": {"i": 6}}, {"name": "E", "data": {"i": 7}}, {"name": "E", "data": {"i": 8}}, {"name": "E", "data": {"i": 9}}]',
  '{"correlation": "bench"}');
