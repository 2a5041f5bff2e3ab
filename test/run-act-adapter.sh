#!/usr/bin/env bash
# The Act framework's Store adapter (adapters/act) against the cluster the PG*
# environment points at, in a database of its own made for this run: Act's
# public API (actions, invariants, reactions, correlate/drain/settle,
# projections, lanes, blocking, close-the-books, personal data, restore), a
# calculator app, and the quick start Act publishes in its package's README,
# on pg_act, through vitest.
# npm packages are installed (npm ci, from the committed lock file) only when
# node_modules is missing or was installed from another lock file; the
# package is built with tsc and type-checked with its tests (strict).
# Details go to stderr; the last line on stdout is "PASSED FAILED" (tests).
#   test/run-act-adapter.sh WORK
set -uo pipefail
work=$1
cd "$(dirname "$0")/../adapters/act" || { echo "0 1"; exit 0; }
dir="$work/act-adapter"
mkdir -p "$dir"

give_up() { echo "FAIL: $*" >&2; echo "0 1"; exit 0; }

command -v node >/dev/null && command -v npm >/dev/null ||
  give_up "node and npm are missing (scripts/deps.sh installs nodejs and npm)"
# The suite (vitest 3, Act 1.31) runs on Debian 12's Node.js 18 and later.
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 18 ] || give_up "Node $(node --version) is too old: the adapter's suite needs Node 18 or later"

# node_modules as the lock file says: installed again when the lock changed.
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.installed-from-lock
if [ ! -d node_modules ] || [ "$(cat "$stamp" 2>/dev/null)" != "$lock_sum" ]; then
  echo "installing the adapter's npm packages (npm ci)" >&2
  npm ci --no-audit --no-fund >"$dir/npm-ci.log" 2>&1 || { cat "$dir/npm-ci.log" >&2; give_up "npm ci failed"; }
  echo "$lock_sum" >"$stamp"
fi

npm run --silent build >"$dir/build.log" 2>&1 || { cat "$dir/build.log" >&2; give_up "tsc could not build the package"; }
npm run --silent typecheck >"$dir/typecheck.log" 2>&1 || { cat "$dir/typecheck.log" >&2; give_up "tsc --noEmit (strict) found errors"; }

db=act_adapter_$$
cleanup() { dropdb --if-exists "$db" >/dev/null 2>&1; }
trap cleanup EXIT
createdb "$db" || give_up "cannot create database $db"
PGDATABASE=$db npx vitest run --reporter=default --reporter=json --outputFile="$dir/results.json" \
  >"$dir/vitest.log" 2>&1
status=$?
passed=$(jq -r '.numPassedTests // 0' "$dir/results.json" 2>/dev/null)
failed=$(jq -r '(.numFailedTests // 0) + (.numPendingTests // 0) + (.numTodoTests // 0)' "$dir/results.json" 2>/dev/null)
passed=${passed:-0}
failed=${failed:-0}
# A suite that could not load, or no test at all, still fails once.
if { [ "$status" -ne 0 ] || [ "$passed" -eq 0 ]; } && [ "$failed" -eq 0 ]; then
  failed=1
fi
[ "$failed" -gt 0 ] && cat "$dir/vitest.log" >&2
echo "$passed $failed"
