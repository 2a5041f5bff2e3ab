#!/usr/bin/env bash
# Reaction latency (commit -> handler start) idle and at 100 commits/s, and
# drain throughput, through the client library's workers, in fenced and in
# concurrent mode. Durable commits (fsync on). Prints one JSON object per mode.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/cluster.sh
source bench/cluster.sh
scripts/build.sh >&2
cmake --build build --target reaction_bench >&2
for mode in fenced concurrent; do
  bench_cluster_start "$mode"
  createdb reactions
  PGDATABASE=reactions build/reaction_bench || status=$?
  bench_cluster_stop
  [ "${status:-0}" -eq 0 ] || exit "$status"
done
