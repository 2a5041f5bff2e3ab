-- Recomputes one stream's hash chain (-D stream=NAME).
SELECT count(*) FROM act.verify(:stream) WHERE valid;
