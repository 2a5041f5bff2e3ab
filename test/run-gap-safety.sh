#!/usr/bin/env bash
# Runs the multi-process gap-safety test (test/stress/gap_safety.cpp) in a
# fresh database; details go to stderr, the last line is "PASSED FAILED".
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3}
db=gap_safety
dropdb --if-exists "$db" 2>/dev/null
createdb "$db" && PGOPTIONS='-c client_min_messages=warning' psql -X -q -d "$db" -c 'CREATE EXTENSION pg_act' >/dev/null ||
  { echo "0 1"; exit 0; }
out=$(PGDATABASE=$db build/gap_safety "$seconds" 2>&1)
echo "$out" | grep -v '^[0-9]* [0-9]*$' >&2
result=$(echo "$out" | tail -n 1)
echo "$result" | grep -qE '^[0-9]+ [0-9]+$' || result="0 1"
dropdb "$db"
echo "$result"
