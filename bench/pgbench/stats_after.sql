-- act.query_stats of every stream, a page of -D size=N after a random one of
-- -D streams=N ("s-000001" ...): paging through a listing.
\set after random(1, :streams)
SELECT count(*) FROM act.query_stats('{}', jsonb_build_object('after', 's-' || lpad(:after::text, 6, '0'), 'limit', :size::int,
                                                              'count', true));
