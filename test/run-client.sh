#!/usr/bin/env bash
# Runs the client library's GoogleTest suite (build/client_tests) against the
# cluster the PG* environment points at; each suite makes its own database.
# Details go to stderr, the last line on stdout is "PASSED FAILED" (tests).
#   test/run-client.sh WORK [GTEST ARGS...]   e.g. --gtest_filter='Store*'
# ParkedClaimDurability needs a cluster of its own (test/run-parked-claim.sh):
# it is left out unless a filter names it.
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1
shift
out="$work/client_tests.out"
if [ ! -x build/client_tests ]; then
  echo "build/client_tests is missing: scripts/build.sh --with=tests client_tests (CMake option ACT_BUILD_TESTS)" >&2
  echo "0 1"
  exit 0
fi
build/client_tests --gtest_brief=1 --gtest_filter='-ParkedClaimDurability.*' "$@" >"$out" 2>&1
status=$?
passed=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) tests\{0,1\}\..*/\1/p' "$out")
failed=$(sed -n 's/^\[  FAILED  \] \([0-9][0-9]*\) tests\{0,1\}, listed below:.*/\1/p' "$out")
skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9][0-9]*\) tests\{0,1\}.*/\1/p' "$out")
passed=${passed:-0}
# No test skips on purpose: a skipped one is in a suite whose database could not be made.
failed=$(( ${failed:-0} + ${skipped:-0} ))
# A crash, a failure outside any test, or no test run at all (a filter that
# matches none) still counts once.
if { [ "$status" -ne 0 ] || [ "$passed" -eq 0 ]; } && [ "$failed" -eq 0 ]; then
  failed=1
fi
[ "$failed" -gt 0 ] && cat "$out" >&2
echo "$passed $failed"
