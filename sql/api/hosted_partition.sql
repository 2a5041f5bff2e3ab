CREATE OR REPLACE FUNCTION act.hosted_partition() RETURNS TABLE(partition int, partitions int)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.partition, p.partitions FROM act.partitioning p
$$;
COMMENT ON FUNCTION act.hosted_partition() IS 'The partition this database hosts (no row: every stream)';
REVOKE ALL ON FUNCTION act.hosted_partition() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION act.hosted_partition() TO act_reader;
