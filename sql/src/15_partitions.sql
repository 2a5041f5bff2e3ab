-- Partitioned mode (docs/scale-out.md): each partition of a partitioned
-- deployment is a database of its own; act.set_partition makes this one
-- partition `partition` of `partitions`, after which every call for a
-- stream of another partition is refused (22023). Without a row the
-- database holds every stream (single-partition mode).
CREATE TABLE act.partitioning (
  one_row boolean PRIMARY KEY DEFAULT true CHECK (one_row),
  partition int NOT NULL,
  partitions int NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now()
);
SELECT pg_catalog.pg_extension_config_dump('act.partitioning', '');
