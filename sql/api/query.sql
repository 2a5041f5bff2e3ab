-- Reading. C++: extension/log/query.cpp
CREATE OR REPLACE FUNCTION act.query(
  stream text DEFAULT NULL, after bigint DEFAULT NULL, before bigint DEFAULT NULL, names text[] DEFAULT NULL,
  max_events int DEFAULT NULL, backward boolean DEFAULT false, stream_exact boolean DEFAULT true,
  created_after timestamptz DEFAULT NULL, created_before timestamptz DEFAULT NULL, correlation text DEFAULT NULL,
  with_snaps boolean DEFAULT false)
RETURNS SETOF act.events
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_query';
-- grant act_reader: Reads events in id order (or backward) with optional filters; never above act.horizon() except for one exact stream
