# shellcheck shell=bash
# Sourced by scripts/test.sh (make test) and scripts/check.sh (make check):
# the tally, the GoogleTest run and the throwaway cluster both use.
#   count SUITE PASSED FAILED       one line for the suite, added to $passed and $failed,
#                                   with the seconds since the line before (where the time goes)
#   gtest_suites [CTEST ARGS...]    the GoogleTest suites ctest runs (no database):
#                                   prints "PASSED FAILED", the log on stderr when any failed
#   cluster_start MODE [postgresql.conf lines...]
#                                   a throwaway cluster in $cluster, its PG* exported;
#                                   a cluster that does not start counts as start/MODE
#   cluster_stop MODE               stops and removes it; a crash in its log counts as crash/MODE
# An interrupted run still stops its cluster.
passed=0
failed=0
counted_at=$SECONDS
count() {
  printf '%-22s %4d passed, %d failed  (%d s)\n' "$1" "$2" "$3" $((SECONDS - counted_at))
  counted_at=$SECONDS
  passed=$((passed + $2))
  failed=$((failed + $3))
}

gtest_suites() {
  local log total failures
  log=$(mktemp)
  (cd build && ctest --output-on-failure "$@") >"$log" 2>&1
  total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$log")
  failures=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1/p' "$log")
  # No summary (nothing built, no test matched): a failure, never zero checks passed.
  if [ -z "$total" ] || [ "$total" -eq 0 ]; then total=1 failures=1; fi
  [ "$failures" -gt 0 ] && cat "$log" >&2
  rm -f "$log"
  echo "$((total - failures)) $failures"
}

cluster=""
trap '[ -n "$cluster" ] && scripts/cluster.sh stop "$cluster/pg" >/dev/null 2>&1; [ -n "$cluster" ] && rm -rf "$cluster"' EXIT
cluster_start() {
  local mode=$1
  shift
  cluster=$(mktemp -d /tmp/pg_act_test.XXXXXX)
  chmod 755 "$cluster"
  if ! scripts/cluster.sh start "$cluster/pg" "$@"; then
    cat "$cluster/pg/server.log" >&2 2>/dev/null
    count "start/$mode" 0 1
    scripts/cluster.sh discard "$cluster/pg"
    rm -rf "$cluster"
    cluster=""
    return 1
  fi
  # shellcheck disable=SC1091
  source "$cluster/pg/env"
}
cluster_stop() {
  scripts/cluster.sh stop "$cluster/pg" || count "crash/$1" 0 1
  rm -rf "$cluster"
  cluster=""
}
