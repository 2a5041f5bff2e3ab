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

-- C++ (extension/partitions/hosted_partition.cpp). Owner's rights: it
-- reads act.partitioning when partitions is NULL.
CREATE FUNCTION act.partition_of(stream text, partitions int DEFAULT NULL) RETURNS int
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_partition_of';
COMMENT ON FUNCTION act.partition_of(text, int) IS
  'The stream''s partition: the first 4 bytes of SHA-256(stream) as a big-endian integer, masked by partitions - 1 (the configured count when NULL)';

CREATE FUNCTION act.set_partition(partition int, partitions int) RETURNS void
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_set_partition';
COMMENT ON FUNCTION act.set_partition(int, int) IS
  'Makes this database partition `partition` of `partitions` (a power of two); refused while it holds a stream of another partition';

CREATE FUNCTION act.hosted_partition() RETURNS TABLE(partition int, partitions int)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.partition, p.partitions FROM act.partitioning p
$$;
COMMENT ON FUNCTION act.hosted_partition() IS 'The partition this database hosts (no row: every stream)';

-- For the SQL-language functions that take a stream (forget_pii, truncate, query_stats).
CREATE FUNCTION act._require_hosted(stream text) RETURNS void
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_require_hosted';
