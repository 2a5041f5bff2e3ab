#!/usr/bin/env bash
# The C++ client paths with Google Benchmark (build/client_bench): write path,
# concurrent and contended commits, realistic workloads, projection replay.
# Arguments go to client_bench (e.g. --benchmark_filter=...).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
bench_database bench_client
"$BENCH_ROOT/build/client_bench" --benchmark_format=json "$@" 2>"$BENCH_WORK/client_bench.err" |
  jq -c -f "$BENCH_ROOT/bench/gbench-records.jq" || { cat "$BENCH_WORK/client_bench.err" >&2; exit 1; }
