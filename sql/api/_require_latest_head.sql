-- C++: extension/log/truncate_guard.cpp
-- Takes the stream's write lock (commits to it wait), then, under a
-- transaction snapshot, refuses (40001) to truncate a stream whose latest
-- head this transaction cannot see.
CREATE OR REPLACE FUNCTION act._require_latest_head(stream text) RETURNS void
LANGUAGE c VOLATILE STRICT
AS 'MODULE_PATHNAME', 'act_require_latest_head';
-- grant none
