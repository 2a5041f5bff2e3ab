-- One act.commit of one event to the client's own stream.
SELECT count(*) FROM act.commit('bench-' || :client_id, '[{"name": "Incremented", "data": {"by": 1}}]', '{"correlation": "bench"}');
