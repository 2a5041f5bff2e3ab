-- One event committed, then sealed: the incremental cost of a seal.
\set n random(1, 1000000000)
SELECT count(*) FROM act.commit('seal-' || :n, '[{"name": "bench.event", "data": {"n": 1}}]');
SELECT size FROM act.seal();
