#!/usr/bin/env bash
# 20 writers contending on one seeded stream through SQL, each retrying on
# 40001 (pgbench --max-tries): commits landed per second and attempts per
# landed commit. A commit whose expected version is already behind the
# stream's head fails at once instead of queuing on the stream's lock.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
bench_database bench_contention
psql -X -q -c "SELECT count(*) FROM act.commit('contended', (SELECT jsonb_agg(jsonb_build_object('name', 'Seeded'))
                                                              FROM generate_series(1, 100)))" >/dev/null
log=$(mktemp -d "$BENCH_WORK/contention.XXXXXX")
(cd "$log" && pgbench -n -c 20 -j 2 -T "$seconds" --max-tries=1000 -f "$BENCH_ROOT/bench/pgbench/commit_contended.sql" \
   >out.txt 2>&1) || { cat "$log/out.txt" >&2; exit 1; }
landed=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$log/out.txt")
retries=$(sed -n 's/^total number of retries: \([0-9]*\).*/\1/p' "$log/out.txt")
tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$log/out.txt")
latency=$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' "$log/out.txt")
jq -nc --argjson landed "${landed:-0}" --argjson retries "${retries:-0}" --argjson tps "${tps:-0}" \
   --argjson latency "${latency:-0}" \
  '{scenario: "sql/contention/20_writers_one_stream", clients: 20, landed: $landed, ops_per_s: $tps,
    attempts_per_landed: (if $landed > 0 then (($landed + $retries) / $landed) else null end),
    mean_time_to_land_ms: $latency}'
