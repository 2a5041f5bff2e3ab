-- act.query_stats of every stream, the first page of one (-D size=N): a
-- listing's first screen.
SELECT count(*) FROM act.query_stats('{}', jsonb_build_object('limit', :size::int));
