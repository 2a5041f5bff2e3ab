#!/usr/bin/env bash
# The C++ client's write path (do_action, warm and cold load) with Google
# Benchmark against a throwaway cluster. Prints Google Benchmark's JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >&2
cmake --build build --target client_bench >&2
cluster=$(mktemp -d /tmp/pg_act_bench.XXXXXX)
chmod 755 "$cluster"
trap 'scripts/cluster.sh stop "$cluster/pg"; rm -rf "$cluster"' EXIT
scripts/cluster.sh start "$cluster/pg" "shared_buffers = '512MB'"
# shellcheck disable=SC1091
source "$cluster/pg/env"
createdb bench
PGDATABASE=bench build/client_bench --benchmark_format=json --benchmark_min_time=0.5
