-- C++: extension/plumbing/regex_cache.cpp
-- Which sources are patterns is decided in one place, core IsPattern, which this calls.
CREATE OR REPLACE FUNCTION act._is_pattern(source text) RETURNS boolean
LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
AS 'MODULE_PATHNAME', 'act_is_pattern';
-- grant none
