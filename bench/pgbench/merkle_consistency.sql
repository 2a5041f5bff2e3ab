-- A consistency proof from a random older size to the current one (-D size=N).
\set old random(1, :size)
SELECT cardinality(act.prove_consistency(:old, :size));
