#!/usr/bin/env bash
# Reaction latency (commit -> handler) idle, at 100/s and 1,000/s, and the
# drain throughput of reactions, through the client's workers (build/reaction_bench).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
bench_database bench_reaction
"$BENCH_ROOT/build/reaction_bench" $(bench_pick "" quick)
