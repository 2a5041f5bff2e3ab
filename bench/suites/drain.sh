#!/usr/bin/env bash
# Drain throughput over SQL: 1 and 5 workers x 100 and 500 streams of 5
# events, every worker looping claim -> query -> ack (build/drain_throughput).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
for workers in 1 5; do
  for streams in 100 500; do
    bench_database "bench_drain_${workers}_${streams}"
    "$BENCH_ROOT/build/drain_throughput" "$workers" "$streams" 5
  done
done
