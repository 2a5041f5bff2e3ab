-- The root at a random size (-D size=N).
\set at random(1, :size)
SELECT length(act.merkle_root(:at));
