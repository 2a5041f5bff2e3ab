#!/usr/bin/env bash
# Runs the pgTAP suites of test/sql, each in a fresh database; details go to
# stderr, the last line on stdout is "PASSED FAILED" (assertions).
#   test/run-pgtap.sh WORK [SUITE...]   SUITE: a file of test/sql without .sql
#                                       (commit, claim...); default: every one
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1
shift
passed=0
failed=0
suites=()
if [ $# -eq 0 ]; then
  suites=(test/sql/*.sql)
else
  for name in "$@"; do suites+=("test/sql/$name.sql"); done
fi
for suite in "${suites[@]}"; do
  name=$(basename "$suite" .sql)
  if [ ! -f "$suite" ]; then
    echo "--- no pgTAP suite $suite" >&2
    failed=$((failed + 1))
    continue
  fi
  db="tap_$name"
  createdb "$db" || { failed=$((failed + 1)); continue; }
  psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c 'CREATE EXTENSION pgtap; CREATE EXTENSION pg_act;' >/dev/null 2>"$work/$name.setup.err" || {
    cat "$work/$name.setup.err" >&2; failed=$((failed + 1)); continue; }
  out="$work/$name.tap"
  psql -X -q -v ON_ERROR_STOP=1 -P pager=off -At -d "$db" -f "$suite" >"$out" 2>&1
  status=$?
  ok=$(grep -c '^ok ' "$out")
  not_ok=$(grep -c '^not ok ' "$out")
  # The suites plan nothing (no_plan()): finish() prints the plan "1..N" after
  # the last check. A suite that stopped before it (a script error, a lost
  # connection) prints none, or one that disagrees with the checks seen.
  planned=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$out" | tail -n 1)
  if [ $status -ne 0 ] || [ -z "$planned" ] || [ "$planned" -eq 0 ] || [ "$planned" -ne $((ok + not_ok)) ] ||
     grep -q '^# Looks like' "$out"; then
    not_ok=$((not_ok + 1))
  fi
  if [ "$not_ok" -gt 0 ]; then
    echo "--- $suite" >&2
    grep -v '^ok ' "$out" >&2
  fi
  passed=$((passed + ok))
  failed=$((failed + not_ok))
  dropdb "$db"
done
echo "$passed $failed"
