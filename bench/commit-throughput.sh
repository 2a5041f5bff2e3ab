#!/usr/bin/env bash
# Commit throughput with pgbench against a throwaway cluster: act.commit
# (single event, 10-event batch) next to a plain INSERT of the same row, at 1
# and 8 clients, in fenced or concurrent mode (pg_act preloaded), optionally
# with a source-less subscription that every commit marks. Prints one JSON
# object. Usage: bench/commit-throughput.sh [seconds] [fenced|concurrent] [wide]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/cluster.sh
source bench/cluster.sh
seconds=${1:-10}
mode=${2:-fenced}
wide=${3:-}
wide_json=false
[ -n "$wide" ] && wide_json=true
scripts/build.sh >&2
bench_cluster_start "$mode" "max_wal_size = '4GB'" "shared_buffers = '512MB'"
createdb bench
psql -X -q -d bench -f bench/pgbench/setup.sql >/dev/null
[ -n "$wide" ] && psql -X -q -d bench -c "SELECT * FROM act.subscribe('[{\"stream\": \"projection\"}]')" >/dev/null

run() {  # run SCRIPT CLIENTS -> "tps p50_ms"
  local log="$bench_cluster/$1-$2"
  mkdir -p "$log"
  (cd "$log" && pgbench -n -M prepared -c "$2" -j "$2" -T "$seconds" -l -f "$OLDPWD/bench/pgbench/$1.sql" bench >out.txt 2>&1)
  local tps p50
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$log/out.txt")
  p50=$(cat "$log"/pgbench_log.* | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int(NR/2)+1]/1000}')
  echo "$tps $p50"
}

settings=$(psql -X -At -d bench -c "SELECT json_object_agg(name, setting) FROM pg_settings WHERE name IN ('fsync','synchronous_commit','shared_buffers','max_wal_size','wal_level','server_version')")
echo "{"
echo "  \"seconds\": $seconds, \"mode\": \"$(psql -X -At -d bench -c 'SELECT act.mode()')\", \"source_less_subscription\": $wide_json,"
echo "  \"settings\": $settings,"
echo "  \"results\": ["
first=1
for clients in 1 8; do
  for script in insert_plain commit_single commit_batch10; do
    read -r tps p50 < <(run "$script" "$clients")
    [ $first -eq 1 ] || echo ","
    first=0
    printf '    {"scenario": "%s", "clients": %d, "tps": %s, "p50_ms": %s}' "$script" "$clients" "$tps" "$p50"
  done
done
echo
echo "  ]"
echo "}"
