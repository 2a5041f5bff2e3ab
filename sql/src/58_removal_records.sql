-- Removal records (docs/verifiable-log.md, "Removal records"): every
-- act.truncate that deletes events states, in an event of the reserved
-- stream __truncations__ (hashed and sealed like any other), how many entries
-- it removed and a digest of them; act.log_removals lists their positions.
-- An entry whose event is gone passes act.verify_log and the auditors only
-- when a record accounts for it. C++ in extension/merkle/removal_records.cpp.

CREATE TABLE act.log_removals (
  record_id bigint PRIMARY KEY,
  positions int8multirange NOT NULL CHECK (NOT isempty(positions)),
  created   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE act.log_removals IS
  'pg_act: the entry positions each removal record (an event of __truncations__) accounts for';

-- The positions and the statement (the record event's data) for removing
-- these sealed events.
CREATE FUNCTION act._describe_removal(ids bigint[], before_upgrade boolean)
RETURNS TABLE(positions text, statement text)
LANGUAGE c VOLATILE SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_describe_removal';

-- Appends the record for events act.truncate has just deleted (their ids);
-- the record's id. Takes __truncations__'s write lock, so records chain in
-- the order they commit.
CREATE FUNCTION act._record_removal(ids bigint[], before_upgrade boolean DEFAULT false) RETURNS bigint
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

CREATE FUNCTION act.log_removals()
RETURNS TABLE(record_id bigint, record_position bigint, removed bigint, positions int8multirange)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT r.record_id, act.log_position(r.record_id),
         (SELECT sum(upper(run) - lower(run)) FROM unnest(r.positions) AS run)::bigint, r.positions
    FROM act.log_removals r ORDER BY r.record_id
$$;
COMMENT ON FUNCTION act.log_removals() IS
  'The removal records: each record event''s id and entry position (NULL until sealed), how many entries it removed and their positions';
