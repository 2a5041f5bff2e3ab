#!/usr/bin/env bash
# Consistency boundaries (docs/dcb.md): conditional appends per second at 1
# and 8 clients on boundaries of their own, next to act.commit in the same
# run (field "ratio": append over commit); 8 clients deciding on one hot
# boundary, retrying on 40001 (ops_per_s counts successful decisions; each
# client reads the boundary after the last event it folded, -D last=-1
# starts it); and act.read of 10 matching events among 1,000,000. bench/run.sh
# runs it in both modes.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
bench_database bench_dcb
for clients in 1 8; do
  commit=$(pgbench_record "sql/dcb_commit/${clients}_clients" dcb_commit "$clients" "$seconds")
  append=$(pgbench_record "sql/dcb_append_distinct/${clients}_clients" dcb_append_distinct "$clients" "$seconds")
  echo "$commit"
  echo "$append"
  jq -n -c --argjson c "$commit" --argjson a "$append" --arg scenario "sql/dcb_append_over_commit/${clients}_clients" \
    '{scenario: $scenario, clients: $a.clients, p50_ms: $a.p50_ms, p95_ms: $a.p95_ms, ops_per_s: $a.ops_per_s,
      ratio: ($a.ops_per_s / $c.ops_per_s * 1000 | round / 1000)}'
done
pgbench_record "sql/dcb_append_hot/8_clients" dcb_append_hot 8 "$seconds" --max-tries=100 -D last=-1
psql -X -q -f "$BENCH_ROOT/bench/pgbench/dcb_setup.sql" >/dev/null
psql -X -q -c 'VACUUM ANALYZE act.events, act.event_tags' >/dev/null
pgbench_record "sql/dcb_read_10_of_1m/1_clients" dcb_read 1 "$seconds"
