-- Appends the record for events act.truncate has just deleted (their ids);
-- the record's id. Takes __truncations__'s write lock, so records chain in
-- the order they commit.
CREATE OR REPLACE FUNCTION act._record_removal(ids bigint[], before_upgrade boolean DEFAULT false) RETURNS bigint
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  described record;
  head record;
  record_stream constant text := '__truncations__';
  record_meta constant jsonb := '{"correlation": "", "causation": {}}';
  now_ts timestamptz := now();
  prev bytea := '\x0000000000000000000000000000000000000000000000000000000000000000';
  next_version int := 0;
  record_id bigint;
BEGIN
  SELECT * INTO described FROM act._describe_removal(ids, before_upgrade);
  PERFORM act._require_latest_head(record_stream);
  SELECT e.version, e.hash INTO head FROM act.events e WHERE e.stream = record_stream ORDER BY e.version DESC LIMIT 1;
  IF FOUND THEN
    prev := head.hash;
    next_version := head.version + 1;
  END IF;
  INSERT INTO act.events AS e (stream, version, name, data, meta, created, hash)
  VALUES (record_stream, next_version, '__tombstone__', described.statement::jsonb, record_meta, now_ts,
          act.event_hash(prev, record_stream, next_version, '__tombstone__', described.statement::jsonb, record_meta, now_ts))
  RETURNING e.id INTO record_id;
  INSERT INTO act.log_removals (record_id, positions) VALUES (record_id, described.positions::int8multirange);
  RETURN record_id;
END $$;
-- grant none
