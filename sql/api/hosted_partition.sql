CREATE OR REPLACE FUNCTION act.hosted_partition() RETURNS TABLE(partition int, partitions int)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.partition, p.partitions FROM act.partitioning p
$$;
-- grant act_reader: The partition this database hosts (no row: every stream)
