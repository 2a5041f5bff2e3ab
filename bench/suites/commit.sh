#!/usr/bin/env bash
# act.commit of one event and of a 10-event batch next to a plain INSERT of
# the same rows into a table of the same shape and indexes, at 1 and 8
# clients, each client on a stream of its own; then single commits while a
# source-less subscription makes every commit mark it. Durable commits.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
bench_database bench_commit
psql -X -q -f "$BENCH_ROOT/bench/pgbench/setup.sql" >/dev/null 2>&1
batch='. + {events_per_op: 10, events_per_s: (.ops_per_s * 10)}'
for clients in 1 8; do
  pgbench_record "sql/insert_plain/${clients}_clients" insert_plain "$clients" "$seconds"
  pgbench_record "sql/commit_single/${clients}_clients" commit_single "$clients" "$seconds"
  pgbench_record "sql/insert_plain_10/${clients}_clients" insert_plain10 "$clients" "$seconds" | jq -c "$batch"
  pgbench_record "sql/commit_batch_10/${clients}_clients" commit_batch10 "$clients" "$seconds" | jq -c "$batch"
done
psql -X -q -c "SELECT * FROM act.subscribe('[{\"stream\": \"projection\"}]')" >/dev/null
pgbench_record "sql/commit_single_marking_a_subscription/8_clients" commit_single 8 "$seconds"
