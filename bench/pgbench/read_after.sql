-- What a drain's read does: the next 100 events of the log after a random
-- position (-D first=ID -D last=ID), capped at the horizon.
\set after random(:first, :last)
SELECT count(*) FROM act.query(after => :after, max_events => 100);
