-- One act.commit of one event to a stream that did not exist, as
-- commit_single.sql calls it otherwise.
SELECT * FROM act.commit('new-' || nextval('sweep_stream_seq'), '[{"name": "Incremented", "data": {"by": 1}}]',
                         '{"correlation": "bench"}');
