#!/usr/bin/env bash
# act.ack of 10 and 100 leases next to the act.claim that took them, one
# client, 100 subscriptions with work; each statement's mean latency
# (pgbench -r). Commits are asynchronous (synchronous_commit = off), as in
# the claim suite: the figures are the calls' own work, without a WAL flush each.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
bench_database bench_ack
PGOPTIONS='-c bench.subscriptions=100' psql -X -q -v subscriptions=100 -f "$BENCH_ROOT/bench/pgbench/ack_setup.sql" >/dev/null
for leases in 10 100; do
  log=$(mktemp -d "$BENCH_WORK/ack.XXXXXX")
  (cd "$log" && PGOPTIONS='-c synchronous_commit=off' pgbench -n -M prepared -c 1 -j 1 -T "$seconds" -r -D leases=$leases \
     -f "$BENCH_ROOT/bench/pgbench/claim_then_ack.sql" >out.txt 2>&1) || { cat "$log/out.txt" >&2; exit 1; }
  # -r prints one line per statement: mean latency in ms, failures, retries, the statement.
  claim_ms=$(awk '/AS acks$/ {print $1; exit}' "$log/out.txt")  # the claim's line
  ack_ms=$(awk '/act.ack\(/ {print $1; exit}' "$log/out.txt")
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$log/out.txt")
  jq -nc --arg scenario "sql/ack/${leases}_leases" --argjson leases "$leases" --argjson claim "$claim_ms" \
     --argjson ack "$ack_ms" --argjson tps "$tps" \
    '{scenario: $scenario, clients: 1, leases: $leases, ack_mean_ms: $ack, claim_mean_ms: $claim,
      ack_to_claim: ($ack / $claim), ops_per_s: $tps, ops: "claim and ack cycles", synchronous_commit: "off"}'
  rm -rf "$log"
done
