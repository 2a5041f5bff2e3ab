-- One act.commit of one event to the client's own stream, called as the C++
-- client and the examples call it: the committed row comes back.
SELECT * FROM act.commit('bench-' || :client_id, '[{"name": "Incremented", "data": {"by": 1}}]', '{"correlation": "bench"}');
