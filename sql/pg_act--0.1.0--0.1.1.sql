-- pg_act 0.1.0 -> 0.1.1. The schema is unchanged: 0.1.1 changes only the
-- library (payload limits, cancelled regex matches reported as cancels).
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.1.1'" to load this file. \quit
