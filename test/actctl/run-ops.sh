#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# actctl's database commands (status, lag, blocked, metrics, unblock, reset,
# prioritize, defer) against the cluster the PG* environment points at, in a
# database of their own: outputs, --json, exit codes, dry runs that change
# nothing and --yes that changes what it says. Details go to stderr; the last
# line on stdout is "PASSED FAILED".
#   test/actctl/run-ops.sh WORK [path to actctl, default build/actctl]
set -uo pipefail
work=$1
actctl=${2:-}
[ -n "$actctl" ] && [[ $actctl == */* ]] && actctl=$(realpath -m "$actctl")
cd "$(dirname "$0")/../.." || { echo "0 1"; exit 0; }
actctl=${actctl:-build/actctl}
if [ ! -x "$actctl" ]; then
  echo "no actctl at $actctl (build it: cmake --build build --target actctl)" >&2
  echo "0 1"
  exit 0
fi
db=actctl_ops_$$
mkdir -p "$work"
out="$work/actctl-ops.out"
err="$work/actctl-ops.err"
if ! createdb "$db" || ! psql -qX -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION pg_act" >&2; then
  echo "cannot create database $db with pg_act" >&2
  echo "0 1"
  exit 0
fi
trap 'dropdb --if-exists "$db" >/dev/null 2>&1' EXIT
export PGDATABASE=$db

sql() { psql -qXAt -v ON_ERROR_STOP=1 -d "$db" -c "$1"; }
snapshot() { sql "SELECT s::text FROM act.subscriptions s ORDER BY stream COLLATE \"C\""; }

# Four subscriptions with work, all claimed by w1; orders-2 blocked.
sql "SELECT * FROM act.subscribe('[{\"stream\":\"orders-1\",\"source\":\"orders\"},
     {\"stream\":\"orders-2\",\"source\":\"orders\",\"lane\":\"slow\"},
     {\"stream\":\"audit\"},{\"stream\":\"mailer\",\"lane\":\"slow\"}]')" >/dev/null
sql "SELECT * FROM act.commit('orders', '[{\"name\":\"placed\",\"data\":{}}]')" >/dev/null
sql "SELECT * FROM act.claim(10, 0, 'w1', 600000)" >/dev/null
sql "SELECT * FROM act.block('[{\"stream\":\"orders-2\",\"by\":\"w1\",\"error\":\"handler failed: boom\"}]')" >/dev/null

passed=0
failed=0
fail() { echo "FAIL: $*" >&2; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }

# check WANT_CODE DESCRIPTION ARGS...: actctl exits WANT_CODE; output in $out/$err.
check() {
  local want=$1 what=$2
  shift 2
  "$actctl" "$@" >"$out" 2>"$err"
  local code=$?
  if [ "$code" -ne "$want" ]; then
    fail "$what: exit $code, wanted $want (actctl $*)"
    sed 's/^/  out: /' "$out" >&2
    sed 's/^/  err: /' "$err" >&2
    return 1
  fi
  pass
}
# has DESCRIPTION FILE REGEX: a line of FILE matches.
has() {
  if grep -Eq -- "$3" "$2"; then pass; else fail "$1: no line matching '$3'"; sed 's/^/  | /' "$2" >&2; fi
}
hasnt() {
  if grep -Eq -- "$3" "$2"; then fail "$1: a line matches '$3'"; sed 's/^/  | /' "$2" >&2; else pass; fi
}
json() {  # json DESCRIPTION JQ_EXPRESSION: $out parses and the expression is true
  if jq -e "$2" "$out" >/dev/null 2>&1; then pass; else fail "$1: jq '$2' does not hold"; sed 's/^/  | /' "$out" >&2; fi
}

# status
check 0 status status && { has status "$out" '^subscriptions: +4$'; has status "$out" '^blocked: +1$'
  has status "$out" '^mode: +(fenced|concurrent)$'; }
check 0 "status --json" status --json && json "status --json" '.subscriptions == 4 and .blocked == 1'

# lag
check 0 lag lag && { has lag "$out" '^stream +lane +at +work mark +age +blocked +leased by$'
  has lag "$out" '^orders-2 +slow +-1 +[0-9]+ .* yes +w1$'; has lag "$out" '^audit +default '; }
check 0 "lag --lane slow" lag --lane slow && hasnt "lag --lane" "$out" '^audit '
check 0 "lag --limit 1" lag --limit 1 && { [ "$(wc -l <"$out")" -eq 2 ] && pass || fail "lag --limit 1: not one row"; }
check 0 "lag --json" lag --json && json "lag --json" 'type == "array" and length == 4 and (map(select(.blocked)) | length) == 1'
check 2 "lag --limit 0" lag --limit 0

# blocked
check 0 blocked blocked && { has blocked "$out" '^orders-2 +slow +-1 +[0-9]+ +handler failed: boom$'
  hasnt blocked "$out" '^orders-1 '; }
check 0 "blocked --lane default" blocked --lane default && hasnt "blocked --lane" "$out" '^orders-2 '
check 0 "blocked --json" blocked --json && json "blocked --json" 'length == 1 and .[0].stream == "orders-2"'

# metrics
check 0 metrics metrics && { has metrics "$out" '^# TYPE pg_act_subscriptions gauge$'
  has metrics "$out" '^pg_act_subscriptions 4$'; has metrics "$out" '^pg_act_subscriptions_blocked\{lane="slow"\} 1$'
  hasnt metrics "$out" 'orders'
  if [ "$(sql 'SELECT act.mode()')" = concurrent ]; then
    has metrics "$out" '^# TYPE pg_act_commits_total counter$'; has metrics "$out" '^pg_act_commits_total 1$'
  else
    hasnt metrics "$out" '_total'
  fi; }

# Selectors: none, bad JSON, combined with --selector, bad connection string.
for op in unblock reset "prioritize --priority 5" "defer --until 2100-01-01T00:00:00Z"; do
  # shellcheck disable=SC2086
  check 2 "$op without a selector" $op && has "$op without a selector" "$err" '^actctl: no selector'
done
check 2 "bad --selector JSON" unblock --selector '{"stream": ' && has "bad JSON" "$err" '^actctl: --selector'
check 2 "--selector with --lane" unblock --selector '{}' --lane slow
check 2 "unknown selector key" unblock --selector '{"colour": "red"}'
check 2 "bad --until" defer --stream audit --until yesterday-ish
check 2 "bad --dsn" --dsn 'nonsense_option=1' status && { has "bad --dsn" "$err" '^actctl: cannot connect'
  [ "$(wc -l <"$err")" -eq 1 ] && pass || fail "bad --dsn: not one line on stderr"; }
check 2 "unreachable --dsn" status --dsn "host=/nonexistent port=1 dbname=$db"
check 2 "missing database" status --dsn "dbname=${db}_missing"

# Dry runs change nothing.
before=$(snapshot)
check 0 "unblock dry run" unblock --blocked && { has "unblock dry run" "$out" '^orders-2 '
  has "unblock dry run" "$out" '^dry run: 1 subscriptions would change; add --yes to apply$'; }
check 0 "reset dry run" reset --lane slow && has "reset dry run" "$out" '^dry run: 2 subscriptions would change'
check 0 "prioritize dry run" prioritize --priority 7 --stream 'orders-.*' --regex &&
  has "prioritize dry run" "$out" '^dry run: 2 subscriptions would change'
check 0 "defer dry run" defer --until 2100-01-01T00:00:00Z --stream audit &&
  has "defer dry run" "$out" '^dry run: 1 subscriptions would change'
check 0 "array selector dry run" reset --selector '["audit", "no-such-stream", "mailer"]' && {
  has "array dry run" "$out" '^audit '; has "array dry run" "$out" '^mailer '; hasnt "array dry run" "$out" 'no-such-stream'
  has "array dry run" "$out" '^dry run: 2 subscriptions would change'; }
check 0 "typo dry run" unblock --stream orders2 && has "typo dry run" "$out" '^dry run: 0 subscriptions would change'
[ "$(snapshot)" = "$before" ] && pass || fail "a dry run changed act.subscriptions"

# --yes changes what it says.
check 0 "typo --yes" unblock --stream orders2 --yes && has "typo --yes" "$out" '^0 subscriptions changed$'
[ "$(snapshot)" = "$before" ] && pass || fail "a selector with a typo changed act.subscriptions"
check 0 "unblock --yes" unblock --stream orders-2 --yes && has "unblock --yes" "$out" '^1 subscriptions changed$'
[ "$(sql "SELECT count(*) FROM act.subscriptions WHERE blocked")" = 0 ] && pass || fail "unblock left a blocked row"
check 0 "prioritize --yes" prioritize --priority 7 --stream 'orders-.*' --regex --yes &&
  has "prioritize --yes" "$out" '^2 subscriptions changed$'
[ "$(sql "SELECT string_agg(stream, ',' ORDER BY stream) FROM act.subscriptions WHERE priority = 7")" = "orders-1,orders-2" ] &&
  pass || fail "prioritize changed other rows"
check 0 "prioritize again, dry run" prioritize --priority 7 --lane slow &&
  has "prioritize again" "$out" '^dry run: 1 subscriptions would change'
check 0 "defer --yes" defer --until 2100-01-01T00:00:00Z --selector '["audit"]' --yes &&
  has "defer --yes" "$out" '^1 subscriptions changed$'
[ -n "$(sql "SELECT deferred_at FROM act.subscriptions WHERE stream = 'audit'")" ] && pass || fail "defer did not defer audit"
check 0 "reset --yes" reset --lane slow --yes && has "reset --yes" "$out" '^2 subscriptions changed$'
[ "$(sql "SELECT count(*) FROM act.subscriptions WHERE lane = 'slow' AND at = -1 AND leased_by IS NULL")" = 2 ] &&
  pass || fail "reset did not rewind the slow lane"

# A database error (a database without pg_act): exit 1, one line on stderr.
if createdb "${db}_plain"; then
  check 1 "database error" status --dsn "dbname=${db}_plain" && {
    has "database error" "$err" '^actctl: .*schema "act" does not exist'
    [ "$(wc -l <"$err")" -eq 1 ] && pass || fail "database error: not one line on stderr"; }
  dropdb "${db}_plain"
else
  fail "cannot create database ${db}_plain"
fi

# --help everywhere.
for c in status lag blocked metrics unblock reset prioritize defer; do
  check 0 "$c --help" "$c" --help && has "$c --help" "$out" 'Usage'
done

echo "$passed $failed"
