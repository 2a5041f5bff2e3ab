#!/usr/bin/env bash
# Commit and claim next to 0, 1k and 10k source-less and pattern
# subscriptions (bench/pgbench/wide_setup.sql): 4 clients commit (each
# backend then holds its own wide marks), then one client claims lane 'hot'.
# Both should stay flat: commits mark classes, not subscriptions, and claims
# read wide rows class by class (docs/work-marks.md).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
for n in 0 1000 10000; do
  # A fresh database each: a pattern row's back-fill reads the log, so the
  # set-up is fast only with few events.
  bench_database "bench_wide_$n"
  psql -X -q -v wide="$n" -f "$BENCH_ROOT/bench/pgbench/wide_setup.sql" >/dev/null
  PGOPTIONS='-c synchronous_commit=off' pgbench_record "sql/wide/commit_${n}_wide" commit_single 4 "$seconds" |
    jq -c --argjson wide "$n" '. + {wide_subscriptions: $wide, synchronous_commit: "off"}'
  PGOPTIONS='-c synchronous_commit=off' pgbench_record "sql/wide/claim_${n}_wide" claim_hot 1 "$seconds" |
    jq -c --argjson wide "$n" '. + {wide_subscriptions: $wide, synchronous_commit: "off"}'
done
