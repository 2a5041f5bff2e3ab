-- A plain table of the same shape and indexes as act.events, for comparison.
CREATE EXTENSION IF NOT EXISTS pg_act;
DROP TABLE IF EXISTS plain_events;
CREATE SEQUENCE IF NOT EXISTS plain_version_seq AS int;
CREATE TABLE plain_events (LIKE act.events INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE plain_events ALTER COLUMN id SET DEFAULT nextval('act.events_id_seq');
ALTER TABLE plain_events ADD PRIMARY KEY (id), ADD UNIQUE (stream, version);
CREATE INDEX ON plain_events (stream, id) WHERE name = '__snapshot__';
CREATE INDEX ON plain_events ((meta ->> 'correlation'));
