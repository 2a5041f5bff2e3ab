#!/usr/bin/env bash
# act.wait wake-up latency: commit sent -> act.wait returned (build/wait_latency).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
bench_database bench_wait
"$BENCH_ROOT/build/wait_latency" "$(bench_pick 300 50)"
