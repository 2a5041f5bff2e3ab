-- C++: extension/workset/stream_admin.cpp
CREATE OR REPLACE FUNCTION act.query_streams(filter jsonb DEFAULT '{}', after text DEFAULT NULL, max_streams int DEFAULT 100)
RETURNS SETOF act.subscriptions
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_query_streams';
-- grant act_reader: Subscription rows ordered by stream (C collation), keyset-paginated by `after`
