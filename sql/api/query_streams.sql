-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.query_streams(filter jsonb DEFAULT '{}', after text DEFAULT NULL, max_streams int DEFAULT 100)
RETURNS SETOF act.subscriptions
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_query_streams';
COMMENT ON FUNCTION act.query_streams(jsonb, text, int) IS
  'Subscription rows ordered by stream (C collation), keyset-paginated by `after`';
REVOKE ALL ON FUNCTION act.query_streams(jsonb, text, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.query_streams(jsonb, text, int) TO act_reader;
