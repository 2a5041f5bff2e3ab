-- The commit sweep's new streams: one number a stream, drawn by the act.commit
-- and the plain INSERT alike, so both sides pay the same for naming it.
CREATE SEQUENCE IF NOT EXISTS sweep_stream_seq;
