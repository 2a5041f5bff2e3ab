#!/usr/bin/env bash
# Throughput against clients: act.commit of one event at 1, 2, 4, 8 and 16
# clients, to a new stream each time and to a stream of each client's own,
# each right after a plain INSERT of the same row at the same client count
# (the floor), so both sides of a pair run in the same weather. Durable
# commits. The commit's record carries its ops/s over the INSERT's just before
# ("over_insert"); bench/plot.sh draws the sweep.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 5 1)
bench_database bench_sweep_commits
psql -X -q -f "$BENCH_ROOT/bench/pgbench/setup.sql" >/dev/null 2>&1
psql -X -q -f "$BENCH_ROOT/bench/pgbench/sweep_setup.sql" >/dev/null
# pair TARGET COMMIT_SCRIPT INSERT_SCRIPT CLIENTS: the INSERT's record, then the commit's.
pair() {
  local target=$1 commit=$2 insert=$3 clients=$4 floor
  floor=$(pgbench_record "sql/insert_sweep/$target/${clients}_clients" "$insert" "$clients" "$seconds")
  echo "$floor"
  pgbench_record "sql/commit_sweep/$target/${clients}_clients" "$commit" "$clients" "$seconds" |
    jq -c --argjson floor "$floor" '. + {over_insert: (.ops_per_s / $floor.ops_per_s * 1000 | round / 1000)}'
}
for clients in 1 2 4 8 16; do
  pair new_stream commit_new_stream insert_new_stream "$clients"
  pair stream_per_client commit_single insert_plain "$clients"
done
