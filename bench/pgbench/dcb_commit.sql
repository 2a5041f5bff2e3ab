-- The baseline of the dcb suite: act.commit of one tagged event to the client's own stream.
SELECT * FROM act.commit('dcb-' || :client_id, ('[{"name": "Decided", "data": {"by": 1}, "tags": ["client:' || :client_id || '"]}]')::jsonb);
