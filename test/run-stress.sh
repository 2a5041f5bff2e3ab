#!/usr/bin/env bash
# Runs the stress scenarios (build/stress, test/stress/) against the cluster the
# PG* environment points at, each in a fresh database. server-crash gets a
# cluster of its own in the same mode: it stops the server at once and restarts it.
#   test/run-stress.sh WORKDIR [--long]
# Summaries and details go to stderr; the last line is "PASSED FAILED" (scenarios).
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1
shift
if [ ! -x build/stress ]; then
  echo "build/stress is missing: scripts/build.sh --with=stress stress (CMake option ACT_BUILD_STRESS)" >&2
  echo "0 1"
  exit 0
fi
passed=0
failed=0
tally() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi; }

scenario() {  # scenario NAME [stress arguments...]: returns its status
  local db="stress_${1//-/_}" status
  dropdb --if-exists "$db" 2>/dev/null
  createdb "$db" && PGOPTIONS='-c client_min_messages=warning' psql -X -q -d "$db" -c 'CREATE EXTENSION pg_act' >/dev/null ||
    return 1
  PGDATABASE=$db build/stress "$@" >&2
  status=$?
  dropdb "$db" || status=1
  return $status
}

for name in commit-storm same-stream drain-under-churn killed-worker; do
  scenario "$name" "$@"
  tally $?
done

crash="$work/crash"
trap 'scripts/cluster.sh stop "$crash" >/dev/null 2>&1' EXIT
conf=("recovery_init_sync_method = syncfs")  # recovery would fsync every file one by one: seconds per crash
[ "$(psql -X -At -d postgres -c "SELECT current_setting('shared_preload_libraries') LIKE '%pg_act%'")" = t ] &&
  conf+=("shared_preload_libraries = 'pg_act'")
if scripts/cluster.sh start "$crash" "${conf[@]}"; then
  (
    # shellcheck disable=SC1091
    source "$crash/env"
    scenario server-crash "$@" --crash-command "scripts/cluster.sh crash $crash"
  )
  tally $?
  # An immediate stop is no crash to it: it still fails on a PANIC or a process killed by a signal.
  scripts/cluster.sh stop "$crash" >&2 || tally 1
else
  cat "$crash/server.log" >&2 2>/dev/null
  tally 1
fi
echo "$passed $failed"
