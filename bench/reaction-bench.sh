#!/usr/bin/env bash
# Reaction latency (commit -> handler start) idle and at 100 commits/s, and
# drain throughput, through the client library's workers, in fenced and in
# concurrent mode. Durable commits (fsync on). Prints one JSON object per mode.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >&2
cmake --build build --target reaction_bench >&2
for mode in fenced concurrent; do
  cluster=$(mktemp -d /tmp/pg_act_bench.XXXXXX)
  chmod 755 "$cluster"
  if [ "$mode" = concurrent ]; then
    scripts/cluster.sh start "$cluster/pg" "shared_preload_libraries = 'pg_act'"
  else
    scripts/cluster.sh start "$cluster/pg"
  fi
  # shellcheck disable=SC1091
  source "$cluster/pg/env"
  createdb reactions
  PGDATABASE=reactions build/reaction_bench || status=$?
  scripts/cluster.sh stop "$cluster/pg"
  rm -rf "$cluster"
  [ "${status:-0}" -eq 0 ] || exit "$status"
done
