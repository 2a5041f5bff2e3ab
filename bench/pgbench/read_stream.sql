-- Reads one stream's events in full (-D stream=NAME).
SELECT count(*) FROM act.query(stream => :stream);
