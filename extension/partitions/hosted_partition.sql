-- The statements hosted_partition.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: misplaced
SELECT e.stream FROM act.events e WHERE act.partition_of(e.stream, $2) OPERATOR(pg_catalog.<>) $1
UNION ALL SELECT s.source FROM act.subscription_rows s WHERE s.source IS NOT NULL
AND NOT act._is_pattern(s.source) AND act.partition_of(s.source, $2) OPERATOR(pg_catalog.<>) $1 LIMIT 1

-- name: store
INSERT INTO act.partitioning AS p (partition, partitions) VALUES ($1, $2) ON CONFLICT (one_row) DO UPDATE
SET partition = excluded.partition, partitions = excluded.partitions, set_at = pg_catalog.now()
