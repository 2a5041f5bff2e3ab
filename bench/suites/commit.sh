#!/usr/bin/env bash
# act.commit of one event and of a 10-event batch next to a plain INSERT of
# the same rows into a table of the same shape and indexes, at 1 and 8
# clients, each client on a stream of its own; then single commits while a
# source-less subscription makes every commit mark it. Durable commits.
#
# The INSERT and the commit alternate for several rounds: on a shared VM the
# disk's flush time drifts over minutes, and one run of each could land in
# different weather. Every round is a record (field "round"); one record per
# comparison gives the ratio of commit to INSERT ops/s in each round, their
# median and the ratio of the sums (field "ratio"), with the commit's median
# round as its p50/p95/ops_per_s.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
rounds=$(bench_pick 3 1)
bench_database bench_commit
psql -X -q -f "$BENCH_ROOT/bench/pgbench/setup.sql" >/dev/null 2>&1
rounds_file="$BENCH_WORK/commit_rounds.jsonl"
# compare NAME COMMIT_SCRIPT INSERT_NAME INSERT_SCRIPT CLIENTS EVENTS_PER_OP
compare() {
  local name=$1 commit=$2 insert_name=$3 insert=$4 clients=$5 events=$6 round
  local per_op=". + {events_per_op: $events, events_per_s: (.ops_per_s * $events)}"
  : >"$rounds_file"
  for round in $(seq "$rounds"); do
    pgbench_record "sql/$insert_name/${clients}_clients" "$insert" "$clients" "$seconds" |
      jq -c --argjson round "$round" "$per_op + {round: \$round, side: \"insert\"}" | tee -a "$rounds_file"
    pgbench_record "sql/$name/${clients}_clients" "$commit" "$clients" "$seconds" |
      jq -c --argjson round "$round" "$per_op + {round: \$round, side: \"commit\"}" | tee -a "$rounds_file"
  done
  jq -s -c --arg scenario "sql/${name}_over_insert/${clients}_clients" '
    def median: sort | .[(length - 1) / 2 | floor];
    (map(select(.side == "insert"))) as $insert | (map(select(.side == "commit"))) as $commit |
    [range(0; $commit | length) | $commit[.].ops_per_s / $insert[.].ops_per_s] as $ratios |
    ($commit | sort_by(.ops_per_s) | .[(length - 1) / 2 | floor]) as $typical |
    {scenario: $scenario, clients: $typical.clients, rounds: ($commit | length),
     p50_ms: $typical.p50_ms, p95_ms: $typical.p95_ms, ops_per_s: $typical.ops_per_s,
     ratios: ($ratios | map(. * 1000 | round / 1000)),
     ratio: ($ratios | median * 1000 | round / 1000),
     ratio_of_sums: (($commit | map(.ops_per_s) | add) / ($insert | map(.ops_per_s) | add) * 1000 | round / 1000)}' \
    "$rounds_file"
}
for clients in 1 8; do
  compare commit_single commit_single insert_plain insert_plain "$clients" 1
  compare commit_batch_10 commit_batch10 insert_plain_10 insert_plain10 "$clients" 10
done
psql -X -q -c "SELECT * FROM act.subscribe('[{\"stream\": \"projection\"}]')" >/dev/null
pgbench_record "sql/commit_single_marking_a_subscription/8_clients" commit_single 8 "$seconds"
