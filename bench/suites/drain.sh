#!/usr/bin/env bash
# Drain throughput over SQL: workers x streams of 5 events (1 x 100, 1 x 500,
# 5 x 100, 5 x 500, 5 x 5,000), every worker looping claim -> query -> ack,
# then the same through act.claim_events with the acks riding on the next
# claim (build/drain_throughput); 10 streams a claim, and act.claim_events
# once more with 100 a claim (the cost of a cycle is mostly per call).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
for shape in 1x100 1x500 5x100 5x500 5x5000; do
  workers=${shape%x*} streams=${shape#*x}
  for mode in query claim_events; do
    bench_database "bench_drain_${mode}_${workers}_${streams}"
    "$BENCH_ROOT/build/drain_throughput" "$workers" "$streams" 5 "$mode"
  done
  bench_database "bench_drain_claim_100_${workers}_${streams}"
  "$BENCH_ROOT/build/drain_throughput" "$workers" "$streams" 5 claim_events 100
done
