-- Event tags (docs/dcb.md): one row per tag of an event, written by
-- act.commit and act.append in the event's transaction. Not a column of
-- act.events, whose shape is part of the contract. The primary key gives an
-- event's tags in the order given (act.read, act.verify); the (tag, id)
-- index makes a query with a tag cost its matches, not the log.
CREATE TABLE act.event_tags (
  id  bigint NOT NULL,
  ord smallint NOT NULL,
  tag text NOT NULL,
  PRIMARY KEY (id, ord)
);
CREATE INDEX event_tags_tag_ix ON act.event_tags (tag, id);
COMMENT ON TABLE act.event_tags IS 'pg_act: the tags of events, in the order given (hashed with the event)';
