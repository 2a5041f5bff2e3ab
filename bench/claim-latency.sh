#!/usr/bin/env bash
# act.claim latency at 1k, 10k and 100k subscriptions of which 10 have work,
# one client, pgbench against a throwaway cluster. Prints one JSON object.
# Commits are asynchronous here (synchronous_commit = off): the figure is the
# claim's own work; a durable commit adds one WAL flush, the same at any size.
# Usage: bench/claim-latency.sh [seconds per size]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/cluster.sh
source bench/cluster.sh
seconds=${1:-10}
scripts/build.sh >&2
bench_cluster_start fenced "shared_buffers = '512MB'"
createdb bench
psql -X -q -d bench -c 'CREATE EXTENSION pg_act' >/dev/null
echo "{"
echo "  \"scenario\": \"claim 10 of N subscriptions (8 lagging + 2 leading), 1 client\", \"seconds\": $seconds,"
echo "  \"synchronous_commit\": \"off\","
echo "  \"results\": ["
first=1
for n in 1000 10000 100000; do
  psql -X -q -d bench -v subscriptions=$n -f bench/pgbench/claim_setup.sql >/dev/null
  log="$bench_cluster/claim-$n"
  mkdir -p "$log"
  (cd "$log" && PGOPTIONS='-c synchronous_commit=off' \
    pgbench -n -M prepared -c 1 -T "$seconds" -l -f "$OLDPWD/bench/pgbench/claim_ten.sql" bench >out.txt 2>&1)
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$log/out.txt")
  read -r p50 p95 < <(cat "$log"/pgbench_log.* | awk '{print $3}' | sort -n |
    awk '{a[NR]=$1} END {printf "%.3f %.3f\n", a[int(NR*0.5)+1]/1000, a[int(NR*0.95)+1]/1000}')
  claimed=$(psql -X -At -d bench -c "SELECT count(*) FROM act.claim(8, 2, 'check', 0)")
  [ $first -eq 1 ] || echo ","
  first=0
  printf '    {"subscriptions": %d, "with_work": %d, "claims_per_s": %s, "p50_ms": %s, "p95_ms": %s}' \
    "$n" "$claimed" "$tps" "$p50" "$p95"
done
echo
echo "  ]"
echo "}"
