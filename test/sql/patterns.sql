-- One collation for patterns: every place a pattern meets a stream name
-- (commit-time marking, back-fill, act.query, act.query_stats, selectors)
-- matches in the C collation, whatever the database's: character classes,
-- \w and (?i) act on ASCII only, so a row subscribed before a commit and one
-- subscribed after it agree, and every read agrees with both.
BEGIN;
SELECT * FROM no_plan();

SELECT count(*) FROM act.subscribe('[{"stream": "alpha-before", "source": "^[[:alpha:]]+-1$"},
                                     {"stream": "word-before", "source": "^\\w+-1$"},
                                     {"stream": "nocase-before", "source": "(?i)^É-1$"}]');
SELECT count(*) FROM act.commit('é-1', '[{"name": "Accented"}]');
SELECT count(*) FROM act.commit('ab-1', '[{"name": "Plain"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "alpha-after", "source": "^[[:alpha:]]+-1$"},
                                     {"stream": "word-after", "source": "^\\w+-1$"},
                                     {"stream": "nocase-after", "source": "(?i)^É-1$"}]');

SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'alpha-before'),
          (SELECT id FROM act.events WHERE stream = 'ab-1'), '[[:alpha:]] marked at commit: ab-1, not é-1');
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'alpha-after'),
          (SELECT id FROM act.events WHERE stream = 'ab-1'), 'and the same when back-filled');
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'word-before'),
          (SELECT id FROM act.events WHERE stream = 'ab-1'), '\w marked at commit: ASCII only');
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'word-after'),
          (SELECT id FROM act.events WHERE stream = 'ab-1'), 'and the same when back-filled');
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'nocase-before'), NULL,
          '(?i) folds ASCII only: É does not match é at commit');
SELECT is((SELECT correlated_at FROM act.subscriptions WHERE stream = 'nocase-after'), NULL, 'nor in back-fill');

SELECT is((SELECT array_agg(stream) FROM act.query('^[[:alpha:]]+-1$', stream_exact => false)), ARRAY['ab-1'],
          'act.query matches in C too');
SELECT is((SELECT array_agg(stream) FROM act.query('(?i)^É-1$', stream_exact => false)), NULL, 'act.query (?i)');
SELECT is((SELECT array_agg(stream) FROM act.query_stats('{"stream": "^\\w+-1$"}')), ARRAY['ab-1'],
          'act.query_stats matches in C');
SELECT is((SELECT array_agg(stream ORDER BY stream) FROM act.query_streams('{"stream": "^[[:alpha:]]+-before$"}')),
          ARRAY['alpha-before', 'nocase-before', 'word-before'], 'a selector''s stream pattern (ASCII names match)');
SELECT is((SELECT count(*) FROM act.query_streams('{"source_matches": ["é-1"]}')), 0::bigint,
          'source_matches: no pattern source matches é-1 in C');
SELECT count(*) FROM act.subscribe('[{"stream": "é-sub", "source": "x"}]');
SELECT is((SELECT count(*) FROM act.query_streams('{"stream": "^[[:alpha:]]-sub$"}')), 0::bigint,
          'a selector''s [[:alpha:]] does not take é');
SELECT is((SELECT array_agg(stream) FROM act.query_streams('{"stream": "^.-sub$"}')), ARRAY['é-sub'],
          'but . is one character, é included');
SELECT is(act.prioritize('{"stream": "(?i)^É-SUB$"}', 3), 0, 'admin selectors fold ASCII case only');

SELECT * FROM finish();
ROLLBACK;
