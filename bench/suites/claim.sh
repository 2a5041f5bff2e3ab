#!/usr/bin/env bash
# act.claim at 1k, 10k and 100k subscriptions of which 10 have work, one
# client. Commits are asynchronous here (synchronous_commit = off): the
# figure is the claim's own work; a durable commit adds one WAL flush, the
# same at any size.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
bench_database bench_claim
for n in 1000 10000 100000; do
  claimed=$(bench_claim_setup $n)
  PGOPTIONS='-c synchronous_commit=off' pgbench_record "sql/claim/${n}_subscriptions" claim_ten 1 "$seconds" |
    jq -c --argjson claimed "$claimed" '. + {with_work: $claimed, synchronous_commit: "off"}'
done
