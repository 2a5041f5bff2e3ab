#!/usr/bin/env bash
# The health audit's cost on the store bench_work_store seeds (bench/lib.sh):
# 1,000,000 events in 100,000 streams and 100,000 subscriptions (100,000
# and 10,000 quick), plus a snapshot in every 100th stream. Timed: actctl
# audit --json (the database's checks), from the client, one at a time; and
# App::audit with every check (build/audit_cost).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
runs=$(bench_pick 20 5)
streams=$(bench_pick 100000 10000)
subscriptions=$(bench_pick 100000 10000)
actctl=$BENCH_ROOT/build/actctl
program=$BENCH_ROOT/build/audit_cost
for binary in "$actctl" "$program"; do
  [ -x "$binary" ] || { echo "audit: no $binary (cmake --build build --target actctl audit_cost)" >&2; exit 1; }
done
bench_database bench_audit
bench_work_store "$streams" "$subscriptions"
psql -X -q -v ON_ERROR_STOP=1 -c "SELECT count(*) FROM generate_series(100, $streams, 100) s,
  act.commit('s-' || lpad(s::text, 6, '0'), '[{\"name\": \"__snapshot__\", \"data\": {\"sum\": 55}}]')" >/dev/null

"$actctl" audit --json >/dev/null || [ $? -eq 1 ]  # warm; exit 1: the seeded blocked rows are errors
for _ in $(seq 1 "$runs"); do
  start=$(date +%s%N)
  "$actctl" audit --json >/dev/null || [ $? -eq 1 ]
  echo $(( ($(date +%s%N) - start) / 1000 ))
done | sort -n | awk '
  { latency[NR] = $1 / 1000; sum += $1 / 1000 }
  END {
    p50 = int(NR * 0.50) + 1; p95 = int(NR * 0.95) + 1; if (p95 > NR) p95 = NR
    printf "{\"scenario\": \"actctl/audit\", \"clients\": 1, \"samples\": %d, \"p50_ms\": %.3f, \"p95_ms\": %.3f, \"ops_per_s\": %.1f}\n",
           NR, latency[p50], latency[p95], NR * 1000 / sum
  }'
"$program" "$runs"
