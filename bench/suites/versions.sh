#!/usr/bin/env bash
# A new projection version built from the start of a 1M-event log and made
# current (build/projection_version_bench; 20,000 events when quick).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
bench_database bench_versions
"$BENCH_ROOT/build/projection_version_bench" "$(bench_pick 1000000 20000)"
