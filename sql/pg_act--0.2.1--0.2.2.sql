-- pg_act 0.2.1 -> 0.2.2.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.2.2'" to load this file. \quit
