#!/usr/bin/env bash
# make bench (after scripts/deps.sh): build, then for each mode (fenced, and
# concurrent with pg_act preloaded) start a throwaway cluster, run the suites
# that mode changes, stop it; merge every suite's records with the server
# settings and the host into one JSON file, whose path is the last line.
#   bench/run.sh [SUITE...]    default: every suite (bench/suites/*.sh)
#   BENCH_QUICK=1              short runs, for development
#   BENCH_OUT=FILE             default: build/bench/results.json
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_ROOT=$PWD
# shellcheck source=bench/lib.sh
source bench/lib.sh
# shellcheck source=scripts/throwaway-cluster.sh
source scripts/throwaway-cluster.sh

# The suites a mode changes run in both; stats, claim, verify, tiles and sweep_claims read the same way in either.
suites_for() {
  case "$1" in
    fenced) echo commit read stats claim ack wide contention verify merkle tiles drain wait client reaction versions standby import dcb act \
                 sweep_commits sweep_drains sweep_claims ;;
    concurrent) echo commit read ack wide contention merkle drain wait client reaction versions standby partitions import dcb act inspector audit \
                     sweep_commits sweep_drains ;;
  esac
}
out=${BENCH_OUT:-build/bench/results.json}
started=$(date +%s)

echo "building and installing pg_act..." >&2
scripts/build.sh --with=benchmarks >&2
mkdir -p "$(dirname "$out")"
scratch=$(mktemp -d /tmp/pg_act_bench_run.XXXXXX)
trap 'bench_cluster_stop; rm -rf "$scratch"' EXIT
host_before=$(bench_host)
failed=()
for mode in fenced concurrent; do
  bench_cluster_start "$mode" "max_connections = 120" "shared_buffers = '512MB'" "max_wal_size = '4GB'"
  export BENCH_WORK=$bench_cluster
  bench_database bench_settings
  bench_settings >>"$scratch/servers"
  for suite in $(suites_for "$mode"); do
    [ $# -eq 0 ] || [[ " $* " == *" $suite "* ]] || continue
    echo "[$mode] $suite..." >&2
    if ! bench/suites/$suite.sh | jq -c --arg mode "$mode" --arg suite "$suite" '. + {mode: $mode, suite: $suite}' \
         >>"$scratch/records"; then
      failed+=("$mode/$suite")
    fi
  done
  bench_cluster_stop
done

touch "$scratch/records"
jq -n --slurpfile servers "$scratch/servers" --slurpfile scenarios "$scratch/records" \
  --argjson host_before "$host_before" --argjson host_after "$(bench_host)" \
  --arg commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  --arg date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --argjson seconds $(( $(date +%s) - started )) \
  --argjson quick "$( [ "$(bench_pick 0 1)" = 1 ] && echo true || echo false)" \
  --argjson failed "$(printf '%s\n' "${failed[@]}" | jq -R . | jq -s 'map(select(. != ""))')" '
  {date: $date, commit: $commit, quick: $quick, seconds: $seconds, failed_suites: $failed,
   host: ($host_before | .load_average_after = $host_after.load_average),
   servers: $servers, scenarios: $scenarios}' >"$out"
errors=$(jq -r '.scenarios[] | select(.error) | "\(.mode) \(.scenario): \(.error)"' "$out")
[ -z "$errors" ] || echo "$errors" >&2
[ ${#failed[@]} -eq 0 ] || echo "failed suites: ${failed[*]}" >&2
realpath "$out"
[ ${#failed[@]} -eq 0 ] && [ -z "$errors" ]
