#!/usr/bin/env bash
# Drain throughput with W workers (1, 5) over S streams (100, 500) of 5 events
# each, every worker looping claim -> query -> ack. Durable commits (fsync on).
# Prints one JSON object. Usage: bench/drain-throughput.sh [fenced|concurrent]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/cluster.sh
source bench/cluster.sh
mode=${1:-fenced}
scripts/build.sh >&2
cmake --build build --target drain_throughput >&2
bench_cluster_start "$mode" "shared_buffers = '512MB'"
echo "{"
echo "  \"scenario\": \"drain: workers x streams x 5 events, claim(8, 2) -> query -> ack\", \"mode\": \"$mode\","
echo "  \"results\": ["
first=1
for workers in 1 5; do
  for streams in 100 500; do
    db="drain_${workers}_${streams}"
    createdb "$db"
    PGOPTIONS='-c client_min_messages=warning' psql -X -q -d "$db" -c 'CREATE EXTENSION pg_act' >/dev/null
    [ $first -eq 1 ] || echo ","
    first=0
    printf '    %s' "$(PGDATABASE=$db build/drain_throughput "$workers" "$streams" 5)"
  done
done
echo
echo "  ]"
echo "}"
