#!/usr/bin/env bash
# make stress: build and install, then the long stress scenarios (test/stress/,
# run by test/run-stress.sh) in both modes, each mode on a throwaway cluster.
# Ends with one line "N passed, M failed" (scenarios).
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/throwaway-cluster.sh
source scripts/throwaway-cluster.sh
scripts/build.sh --with=stress || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
passed=0
failed=0
for mode in fenced concurrent; do
  if bench_cluster_start "$mode"; then
    read -r p f < <(test/run-stress.sh "$bench_cluster" --long)
  else
    p=0 f=1
  fi
  bench_cluster_stop || f=$((f + 1))
  printf '%-22s %4d passed, %d failed\n' "stress/$mode" "$p" "$f"
  passed=$((passed + p))
  failed=$((failed + f))
  # Readers on a hot standby of a primary under 30 s of writers.
  read -r p f < <(test/run-standby.sh "$mode" 30)
  printf '%-22s %4d passed, %d failed\n' "standby/$mode" "$p" "$f"
  passed=$((passed + p))
  failed=$((failed + f))
done
# The primary of a pg_auto_failover group killed 5 times under a commit storm of 8 writers.
read -r p f < <(test/run-failover.sh 5 8)
printf '%-22s %4d passed, %d failed\n' "failover" "$p" "$f"
passed=$((passed + p))
failed=$((failed + f))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
