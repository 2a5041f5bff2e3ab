#!/usr/bin/env bash
# Drain throughput against workers: the same streams of 5 events (20,000;
# 2,000 quick) drained by 1, 2, 4 and 8 workers through act.claim_events
# (acks on the next call, 10 streams a call), each right after the floor: the
# same events in plain tables drained by plain SQL, one statement a cycle that
# takes 10 streams with work (FOR UPDATE SKIP LOCKED), returns their events
# and moves their watermarks (build/drain_throughput ... plain).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
streams=$(bench_pick 20000 2000)
for workers in 1 2 4 8; do
  for side in plain claim_events; do
    bench_database "bench_sweep_drain_${side}"
    "$BENCH_ROOT/build/drain_throughput" "$workers" "$streams" 5 "$side" |
      jq -c --arg side "$side" '. + {scenario: "sql/drain_sweep/\($side)/\(.workers)_workers", clients: .workers}'
  done
done
