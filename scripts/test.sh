#!/usr/bin/env bash
# make test: build, install, start a throwaway cluster, run every suite, stop it.
# Ends with one line "N passed, M failed" summing all suites.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
count() {  # count SUITE PASSED FAILED
  printf '%-12s %4d passed, %d failed\n' "$1" "$2" "$3"
  passed=$((passed + $2))
  failed=$((failed + $3))
}

# 1. GoogleTest suites (no database).
ctest_log=$(mktemp)
(cd build && ctest --output-on-failure) >"$ctest_log" 2>&1
ctest_total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$ctest_log")
ctest_failed=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1/p' "$ctest_log")
if [ -z "$ctest_total" ]; then cat "$ctest_log"; ctest_total=1; ctest_failed=1; fi
[ "$ctest_failed" -gt 0 ] && cat "$ctest_log"
count gtest $((ctest_total - ctest_failed)) "$ctest_failed"

# 2. Database suites against a throwaway cluster.
cluster=$(mktemp -d /tmp/pg_act_test.XXXXXX)
chmod 755 "$cluster"
stop_cluster() { scripts/cluster.sh stop "$cluster/pg" || failed=$((failed + 1)); }
trap 'stop_cluster; rm -rf "$cluster"' EXIT
scripts/cluster.sh start "$cluster/pg" || { cat "$cluster/pg/server.log" 2>/dev/null; echo "0 passed, 1 failed"; exit 1; }
# shellcheck disable=SC1091
source "$cluster/pg/env"

read -r p f < <(test/run-pgtap.sh "$cluster")
count pgtap "$p" "$f"
read -r p f < <(test/run-isolation.sh "$cluster")
count isolation "$p" "$f"
read -r p f < <(test/run-doc-examples.sh "$cluster" docs/sql.md)
count docs "$p" "$f"
read -r p f < <(test/run-client.sh "$cluster")
count client "$p" "$f"

trap - EXIT
stop_cluster
rm -rf "$cluster"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
