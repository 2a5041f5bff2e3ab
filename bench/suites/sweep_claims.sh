#!/usr/bin/env bash
# Claim time against subscriptions: act.claim of up to 10 streams at 1k, 10k,
# 100k and 1M (not quick) subscriptions of which 10 have work, one client,
# each right after the floor: the same claim in plain SQL on a plain table of
# the same rows (bench/pgbench/claim_floor.sql). Asynchronous commits, as in
# the claim suite: the figure is the claim's own work.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 5 1)
bench_database bench_sweep_claims
for n in 1000 10000 100000 $(bench_pick 1000000 ""); do
  claimed=$(bench_claim_setup "$n")
  psql -X -q -v subscriptions="$n" -f "$BENCH_ROOT/bench/pgbench/claim_floor_setup.sql" >/dev/null
  for side in plain claim; do
    script=$([ "$side" = plain ] && echo claim_floor || echo claim_ten)
    PGOPTIONS='-c synchronous_commit=off' pgbench_record "sql/claim_sweep/$side/${n}_subscriptions" "$script" 1 "$seconds" |
      jq -c --argjson n "$n" --argjson claimed "$claimed" \
        '. + {subscriptions: $n, with_work: $claimed, synchronous_commit: "off"}'
  done
done
