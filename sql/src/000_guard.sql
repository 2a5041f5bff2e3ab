\echo Use "CREATE EXTENSION pg_act" to load this file. \quit
