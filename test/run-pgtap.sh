#!/usr/bin/env bash
# Runs every test/sql/*.sql pgTAP suite in a fresh database; details go to
# stderr, the last line on stdout is "PASSED FAILED" (assertions).
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1
passed=0
failed=0
for suite in test/sql/*.sql; do
  name=$(basename "$suite" .sql)
  db="tap_$name"
  createdb "$db" || { failed=$((failed + 1)); continue; }
  psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c 'CREATE EXTENSION pgtap; CREATE EXTENSION pg_act;' >/dev/null 2>"$work/$name.setup.err" || {
    cat "$work/$name.setup.err" >&2; failed=$((failed + 1)); continue; }
  out="$work/$name.tap"
  psql -X -q -v ON_ERROR_STOP=1 -P pager=off -At -d "$db" -f "$suite" >"$out" 2>&1
  status=$?
  ok=$(grep -c '^ok ' "$out")
  not_ok=$(grep -c '^not ok ' "$out")
  if [ $status -ne 0 ] || grep -q '^# Looks like' "$out"; then
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
