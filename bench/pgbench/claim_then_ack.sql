-- A worker's cycle in two calls: claim :leases streams, then ack every lease
-- one id further on (the rows keep their work, so each cycle claims as many).
-- pgbench -r reports each statement's mean latency; run with -M prepared
-- (:acks goes as a parameter).
SELECT jsonb_agg(jsonb_build_object('stream', stream, 'by', by, 'at', at + 1)) AS acks
  FROM act.claim(:leases, 0, 'bench-acker-' || :client_id, 30000) \gset
SELECT count(*) FROM act.ack(:acks::jsonb);
