#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# actctl audit (the store's health, not `actctl log audit`) against the
# cluster the PG* environment points at, in a database of its own: a
# healthy store has no finding and exits 0; a long lease is a warning
# (exit 0), a blocked row an error (exit 1) whose fix, run as printed,
# clears it; text and --json agree; the app's checks are listed as skipped.
# Details go to stderr; the last line on stdout is "PASSED FAILED".
#   test/actctl/run-health.sh WORK [path to actctl, default build/actctl]
set -uo pipefail
# shellcheck source=test/actctl/lib.sh
source "$(dirname "$0")/lib.sh"
needs jq
db=actctl_health_$$
suite_directory health
database_with_pg_act "$db"
check_command=$actctl
check_timeout=60
trap 'dropdb --if-exists "$db" >/dev/null 2>&1' EXIT
export PGDATABASE=$db

json() {  # json DESCRIPTION JQ_EXPRESSION: $out parses and the expression is true
  if jq -e "$2" "$out" >/dev/null 2>&1; then pass; else fail "$1: jq '$2' does not hold"; sed 's/^/  | /' "$out" >&2; fi
}
lines() {  # lines DESCRIPTION N: $out has N lines
  [ "$(wc -l <"$out")" -eq "$2" ] && pass || { fail "$1: not $2 lines"; sed 's/^/  | /' "$out" >&2; }
}

skipped='^skipped, need an app \(App::audit\): unhandled_target, orphaned_subscription, autoclose_due, snapshot_drift, unknown_event_name, unused_event_name$'

# A healthy store: nothing but the list of what needs an app.
check 0 "audit, healthy" audit && { lines "audit, healthy" 1; has "audit, healthy" "$out" "$skipped"; }
check 0 "audit --json, healthy" audit --json &&
  json "audit --json, healthy" '.findings == [] and (.skipped | length) == 6 and (.skipped | index("snapshot_drift")) != null'

# orders-1 claimed by w1 for an hour: a warning, still exit 0.
sql "SELECT * FROM act.subscribe('[{\"stream\":\"orders-1\",\"source\":\"orders\"}]')" >/dev/null
sql "SELECT * FROM act.commit('orders', '[{\"name\":\"placed\",\"data\":{}}]')" >/dev/null
sql "SELECT * FROM act.claim(1, 0, 'w1', 3600000)" >/dev/null
check 0 "audit, a long lease" audit &&
  has "audit, a long lease" "$out" "^warning long_lease orders-1: leased by w1 for [0-9]+m[0-9]+s more \(longer than 10m0s\) \(fix: actctl release --stream 'orders-1' --yes\)$"
check 0 "audit --json, a long lease" audit --json &&
  json "audit --json, a long lease" '.findings == [{"kind": "long_lease", "severity": "warning", "subject": "orders-1",
    "message": .findings[0].message, "fix": "actctl release --stream '"'orders-1'"' --yes"}]'

# Blocked: an error, exit 1, in text and JSON.
sql "SELECT * FROM act.block('[{\"stream\":\"orders-1\",\"by\":\"w1\",\"error\":\"handler failed: boom\"}]')" >/dev/null
check 1 "audit, blocked" audit &&
  has "audit, blocked" "$out" "^error blocked orders-1: blocked at watermark -1, retry [0-9]+: handler failed: boom \(fix: actctl unblock --stream 'orders-1' --yes\)$"
check 1 "audit --json, blocked" audit --json &&
  json "audit --json, blocked" '[.findings[] | select(.severity == "error")] | length == 1 and .[0].kind == "blocked"'
# The fix as printed clears the finding.
fix=$(jq -r '.findings[] | select(.kind == "blocked") | .fix' "$out")
[[ $fix == "actctl unblock "* ]] && pass || fail "the blocked finding's fix is not an actctl line: $fix"
eval "check 0 'the fix' ${fix#actctl }"
check 0 "audit, unblocked" audit && hasnt_blocked=$(grep -c '^error ' "$out")
[ "${hasnt_blocked:-1}" -eq 0 ] && pass || fail "audit still reports an error after the fix"

check 2 "audit --max-rows 0" audit --max-rows 0 && has "audit --max-rows 0" "$err" 'max-rows must be 1 or more'
check 0 "audit --help" audit --help && has "audit --help" "$out" 'log audit'

echo "$passed $failed"
