-- act.read of one boundary's 10 events among the 1,000,000 of dcb_setup.sql.
\set b random(1, 100000)
SELECT * FROM act.read(('{"items": [{"types": ["Decided"], "tags": ["boundary:' || :b || '"]}]}')::jsonb);
