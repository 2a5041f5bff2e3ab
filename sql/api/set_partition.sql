-- C++: extension/partitions/hosted_partition.cpp
CREATE OR REPLACE FUNCTION act.set_partition(partition int, partitions int) RETURNS void
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_set_partition';
-- grant act_admin: Makes this database partition `partition` of `partitions` (a power of two); refused while it holds a stream of another partition
