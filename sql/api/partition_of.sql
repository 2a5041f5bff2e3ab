-- C++: extension/partitions/hosted_partition.cpp
-- Owner's rights: it
-- reads act.partitioning when partitions is NULL.
CREATE OR REPLACE FUNCTION act.partition_of(stream text, partitions int DEFAULT NULL) RETURNS int
LANGUAGE c STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_partition_of';
-- grant act_reader: The stream's partition: the first 4 bytes of SHA-256(stream) as a big-endian integer, masked by partitions - 1 (the configured count when NULL)
