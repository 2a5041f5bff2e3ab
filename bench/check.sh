#!/usr/bin/env bash
# make bench-check: a regression guard over the hot paths. Fails when a
# scenario's p50, divided by a calibration measured in the same run, is over
# 1.5x the same ratio in bench/baseline.json. `make bench-baseline`
# (bench/check.sh --write-baseline) records that file instead.
#
# Staying stable on a busy 2-core machine shared with builds:
#  - No absolute times are compared. Each repetition runs three
#    calibrations: a plain INSERT through pgbench (a round trip, a
#    transaction, WAL: what the short SQL and client calls pay too), fixed
#    JSON and SHA-256 work in SQL (what verify does on the server's CPU), and
#    a fixed CPU loop in the client benchmark's process (JSON parse/dump and a
#    sort: what the in-process paths do). A scenario is divided by the
#    calibration whose work it resembles, so a slower or busier machine
#    slows both sides.
#  - Repetitions are interleaved (calibrations, every scenario, then again),
#    so drift in the machine's load lands on both sides of a ratio; the
#    median ratio over the repetitions is compared, so one disturbed
#    repetition cannot fail the check.
#  - Each measurement is a p50 over many calls after an untimed warm-up, one
#    client: the check never loads both cores itself.
#  - Commits are asynchronous (synchronous_commit = off): a shared disk's
#    flush time is the noisiest part of a commit and none of our code.
#  - 1.5x leaves room for the noise that remains; a real regression on
#    these paths (a lost index, a round trip more, a copy per event) costs more.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_ROOT=$PWD
# shellcheck source=bench/lib.sh
source bench/lib.sh
# shellcheck source=scripts/throwaway-cluster.sh
source scripts/throwaway-cluster.sh

baseline=bench/baseline.json
repetitions=${BENCH_CHECK_REPETITIONS:-5}
seconds=${BENCH_CHECK_SECONDS:-3}
# Each guarded scenario and the calibration it is divided by.
guarded='{
  "sql/commit_single/1_clients": "insert",
  "sql/commit_batch_10/1_clients": "insert",
  "sql/claim/10000_subscriptions": "insert",
  "sql/verify/1000_events": "server_cpu",
  "client/do_action": "insert",
  "client/load_cold_100": "insert",
  "client/do_action_then_load": "insert",
  "client/load_warm": "cpu"
}'
client_filter='^(calibration/cpu|client/do_action|client/load_warm|client/load_cold_100|client/do_action_then_load)(/|$)'

echo "building and installing pg_act..." >&2
scripts/build.sh --with=benchmarks >&2
bench_cluster_start fenced "synchronous_commit = off" "shared_buffers = '512MB'"
export BENCH_WORK=$bench_cluster
records=$bench_cluster/records
# A database per kind of scenario, as in the suites: the commits' growing
# log must not change what claim and verify read from one repetition to the next.
bench_database bench_check_claim
bench_claim_setup 10000 >/dev/null
bench_database bench_check_verify
bench_verify_setup verify-1000 1000
bench_database bench_check_client
bench_database bench_check_commit
psql -X -q -f bench/pgbench/setup.sql >/dev/null 2>&1

for rep in $(seq "$repetitions"); do
  echo "repetition $rep of $repetitions..." >&2
  {
    pgbench_record calibration/insert insert_plain 1 "$seconds"
    pgbench_record calibration/server_cpu calibration_cpu 1 "$seconds"
    pgbench_record sql/commit_single/1_clients commit_single 1 "$seconds"
    pgbench_record sql/commit_batch_10/1_clients commit_batch10 1 "$seconds"
    PGDATABASE=bench_check_claim pgbench_record sql/claim/10000_subscriptions claim_ten 1 "$seconds"
    PGDATABASE=bench_check_verify pgbench_record sql/verify/1000_events verify_stream 1 "$seconds" -D stream=verify-1000
    PGDATABASE=bench_check_client build/client_bench --benchmark_format=json --benchmark_filter="$client_filter" 2>"$bench_cluster/client.err" |
      jq -c -f bench/gbench-records.jq || { cat "$bench_cluster/client.err" >&2; exit 1; }
  } | jq -c --argjson rep "$rep" '. + {rep: $rep}' >>"$records"
done

summary=$(jq -s --argjson guarded "$guarded" -f bench/check.jq "$records")
if [ "${1:-}" = --write-baseline ]; then
  jq -n --argjson summary "$summary" --argjson host "$(bench_host)" \
    --arg commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" --arg date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" '
    {about: "bench/check.sh: p50 / same-run calibration p50, median of the repetitions; fails over 1.5x",
     recorded: {date: $date, commit: $commit, host: $host}, limit: 1.5,
     scenarios: ($summary | map({key: .scenario, value: {calibration, ratio, p50_ms}}) | from_entries)}' >"$baseline"
  echo "wrote $baseline" >&2
  jq -r '.scenarios | to_entries[] | "\(.key)  p50 \(.value.p50_ms) ms  ratio \(.value.ratio)"' "$baseline"
  exit 0
fi

jq -n -r --argjson summary "$summary" --slurpfile baseline "$baseline" '
  $baseline[0] as $base
  | ["scenario", "p50_ms", "ratio", "baseline", "x", "verdict"],
    ($summary[] | . as $now | $base.scenarios[$now.scenario] as $was
     | if $was == null then [$now.scenario, $now.p50_ms, $now.ratio, "-", "-", "no baseline"]
       else ($now.ratio / $was.ratio) as $x
       | [$now.scenario, ($now.p50_ms * 1000 | round / 1000), ($now.ratio * 1000 | round / 1000),
          ($was.ratio * 1000 | round / 1000), ($x * 100 | round / 100), (if $x > $base.limit then "SLOWER" else "ok" end)]
       end)
  | @tsv' | awk -F'\t' '{printf "%-34s %10s %9s %9s %6s  %s\n", $1, $2, $3, $4, $5, $6}'
jq -n -e --argjson summary "$summary" --slurpfile baseline "$baseline" '
  $baseline[0] as $base | all($summary[]; $base.scenarios[.scenario] == null or .ratio <= $base.limit * $base.scenarios[.scenario].ratio)' >/dev/null ||
  { echo "bench-check: a scenario is over its baseline's limit (x above)" >&2; exit 1; }
echo "bench-check: every scenario within its baseline's limit" >&2
