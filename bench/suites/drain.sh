#!/usr/bin/env bash
# Drain throughput over SQL: 1 and 5 workers x 100 and 500 streams of 5
# events, every worker looping claim -> query -> ack, then the same through
# act.claim_events with the acks riding on the next claim (build/drain_throughput).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
for workers in 1 5; do
  for streams in 100 500; do
    for mode in query claim_events; do
      bench_database "bench_drain_${mode}_${workers}_${streams}"
      "$BENCH_ROOT/build/drain_throughput" "$workers" "$streams" 5 "$mode"
    done
  done
done
