#!/usr/bin/env bash
# Builds core's libFuzzer targets (test/fuzz) with clang and the address and
# undefined-behaviour sanitizers in build/fuzz, then runs each for a bounded
# time from its checked-in seeds. Details go to stderr, the last line on
# stdout is "PASSED FAILED" (targets).
#   test/run-fuzz.sh [SECONDS per target, default 3]
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3}
build=build/fuzz
targets=$(sed -n 's/^set(ACT_FUZZ_TARGETS \(.*\))$/\1/p' test/fuzz/CMakeLists.txt)
total=$(echo "$targets" | wc -w)

log=$(mktemp)
if ! { cmake -S . -B "$build" -DACT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DACT_WERROR=ON && cmake --build "$build" -j2; } >"$log" 2>&1; then
  echo "--- the fuzz build failed:" >&2
  tail -n 40 "$log" >&2
  rm -f "$log"
  echo "0 $total"
  exit 0
fi
rm -f "$log"

passed=0
failed=0
work=$(mktemp -d)
for name in $targets; do
  # New inputs go to a scratch directory, so the checked-in seeds never change;
  # a crashing input is kept in build/fuzz/artifacts.
  mkdir -p "$work/$name" "$build/artifacts"
  if "$build/test/fuzz/fuzz_$name" "$work/$name" "test/fuzz/corpus/$name" -max_total_time="$seconds" \
       -max_len=4096 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$build/artifacts/$name-" \
       >"$work/$name.log" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "--- fuzz target $name failed:" >&2
    grep -v '^#[0-9]' "$work/$name.log" | tail -n 40 >&2
  fi
done
rm -rf "$work"
echo "$passed $failed"
