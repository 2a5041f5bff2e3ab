#!/usr/bin/env bash
# The C++ client's write path (do_action, warm and cold load) with Google
# Benchmark against a throwaway cluster. Prints Google Benchmark's JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/cluster.sh
source bench/cluster.sh
scripts/build.sh >&2
cmake --build build --target client_bench >&2
bench_cluster_start fenced "shared_buffers = '512MB'"
createdb bench
PGDATABASE=bench build/client_bench --benchmark_format=json --benchmark_min_time=0.5
