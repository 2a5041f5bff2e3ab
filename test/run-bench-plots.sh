#!/usr/bin/env bash
# bench/plot.sh on a small results file of the sweeps (test/bench/sweeps.json):
# it writes the three pictures, and refuses, writing none, a run that lacks a
# series or a floor point. Details go to stderr, the last line on stdout is
# "PASSED FAILED" (checks).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
fixture=test/bench/sweeps.json
passed=0
failed=0
check() {  # check WHAT COMMAND...: one check, counted
  if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "--- bench plots: $1 failed" >&2; fi
}
is_png() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bench/plot.sh "$fixture" "$work/all" >/dev/null 2>"$work/all.log" || cat "$work/all.log" >&2
for plot in commits drains claims; do
  check "bench-$plot.png written" is_png "$work/all/bench-$plot.png"
done

# refused WHAT JQ_FILTER: plot.sh fails on the fixture less what the filter drops, names it, writes nothing.
refused() {
  local dir="$work/without-$passed-$failed"
  jq "$2" "$fixture" >"$dir.json"
  ! bench/plot.sh "$dir.json" "$dir" >/dev/null 2>"$dir.log" && grep -qF "$1" "$dir.log" && [ ! -e "$dir" ]
}
for series in sql/commit_sweep/new_stream sql/insert_sweep/new_stream sql/commit_sweep/stream_per_client \
              sql/insert_sweep/stream_per_client sql/drain_sweep/claim_events sql/drain_sweep/plain \
              sql/claim_sweep/claim sql/claim_sweep/plain; do
  check "a run without $series refused" refused "$series" \
    ".scenarios |= map(select(.scenario | startswith(\"$series/\") | not))"
done
check "a run without one floor point refused" refused "sql/insert_sweep/new_stream at 4 (concurrent)" \
  '.scenarios |= map(select(.scenario != "sql/insert_sweep/new_stream/4_clients" or .mode != "concurrent"))'
echo "$passed $failed"
