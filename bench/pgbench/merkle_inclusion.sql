-- An inclusion proof of a random event at the current size (-D first=ID -D last=ID).
\set id random(:first, :last)
SELECT count(*) FROM act.prove_inclusion(:id);
