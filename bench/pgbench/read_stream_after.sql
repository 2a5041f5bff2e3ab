-- One stream's next 100 events after a random id of it (-D stream=NAME
-- -D first=ID -D last=ID): a subscription following one long stream.
\set after random(:first, :last)
SELECT count(*) FROM act.query(stream => :stream, after => :after, max_events => 100);
