-- STABLE: timestamptz renders in the session's time zone.
CREATE OR REPLACE FUNCTION act._event_json(e act.events) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
RETURN jsonb_build_object('id', e.id, 'stream', e.stream, 'version', e.version, 'name', e.name,
                          'data', e.data, 'meta', e.meta, 'created', e.created);
-- grant none
