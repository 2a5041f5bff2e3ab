#!/usr/bin/env bash
# Drain throughput with W workers (1, 5) over S streams (100, 500) of 5 events
# each, every worker looping claim -> query -> ack. Durable commits (fsync on).
# Prints one JSON object. Usage: bench/drain-throughput.sh [fenced|concurrent]
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-fenced}
preload=()
[ "$mode" = concurrent ] && preload=("shared_preload_libraries = 'pg_act'")
scripts/build.sh >&2
cmake --build build --target drain_throughput >&2
cluster=$(mktemp -d /tmp/pg_act_bench.XXXXXX)
chmod 755 "$cluster"
trap 'scripts/cluster.sh stop "$cluster/pg"; rm -rf "$cluster"' EXIT
scripts/cluster.sh start "$cluster/pg" "shared_buffers = '512MB'" "${preload[@]}"
# shellcheck disable=SC1091
source "$cluster/pg/env"
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
