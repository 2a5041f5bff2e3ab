-- pg_act 0.2.6 -> 0.3.0.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.3.0'" to load this file. \quit
