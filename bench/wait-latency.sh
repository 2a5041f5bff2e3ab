#!/usr/bin/env bash
# act.wait wake-up latency (commit sent -> act.wait returns), p50/p95, in
# fenced mode (polling) and concurrent mode (condition variable). JSON lines.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >&2
cmake --build build --target wait_latency >&2
for mode in fenced concurrent; do
  cluster=$(mktemp -d /tmp/pg_act_bench.XXXXXX)
  chmod 755 "$cluster"
  preload=()
  [ "$mode" = concurrent ] && preload=("shared_preload_libraries = 'pg_act'")
  scripts/cluster.sh start "$cluster/pg" "${preload[@]}"
  # shellcheck disable=SC1091
  source "$cluster/pg/env"
  createdb bench
  PGOPTIONS='-c client_min_messages=warning' psql -X -q -d bench -c 'CREATE EXTENSION pg_act'
  PGDATABASE=bench build/wait_latency 300
  scripts/cluster.sh stop "$cluster/pg"
  rm -rf "$cluster"
done
