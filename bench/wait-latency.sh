#!/usr/bin/env bash
# act.wait wake-up latency (commit sent -> act.wait returns), p50/p95, in
# fenced mode (polling) and concurrent mode (condition variable). JSON lines.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/cluster.sh
source bench/cluster.sh
scripts/build.sh >&2
cmake --build build --target wait_latency >&2
for mode in fenced concurrent; do
  bench_cluster_start "$mode"
  createdb bench
  PGOPTIONS='-c client_min_messages=warning' psql -X -q -d bench -c 'CREATE EXTENSION pg_act'
  PGDATABASE=bench build/wait_latency 300
  bench_cluster_stop
done
