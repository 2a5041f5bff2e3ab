#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# actctl's database commands (status, lag, blocked, metrics, unblock, reset,
# release, prioritize, defer, tail, verify) against the cluster the PG* environment
# points at, in a database of their own: outputs, --json, exit codes, dry runs
# that change nothing and --yes that changes what it says, tail --follow woken
# by a commit and stopped by a signal, verify finding a tampered chain.
# Details go to stderr; the last line on stdout is "PASSED FAILED".
#   test/actctl/run-ops.sh WORK [path to actctl, default build/actctl]
set -uo pipefail
# shellcheck source=test/actctl/lib.sh
source "$(dirname "$0")/lib.sh"
db=actctl_ops_$$
suite_directory ops
database_with_pg_act "$db"
# Every check runs actctl, with a minute to end.
check_command=$actctl
check_timeout=60
reader=${db}_reader  # a role without act_pii_reader, for tail --pii
background=""        # tail --follow processes still running
cleanup() {
  local pid
  for pid in $background; do kill -KILL "$pid" 2>/dev/null; done
  dropdb --if-exists "$db" >/dev/null 2>&1
  psql -qX -d postgres -c "DROP ROLE IF EXISTS $reader" >/dev/null 2>&1
}
trap cleanup EXIT
export PGDATABASE=$db

snapshot() { sql "SELECT s::text FROM act.subscriptions s ORDER BY stream COLLATE \"C\""; }

# Four subscriptions with work, all claimed by w1; orders-2 blocked.
sql "SELECT * FROM act.subscribe('[{\"stream\":\"orders-1\",\"source\":\"orders\"},
     {\"stream\":\"orders-2\",\"source\":\"orders\",\"lane\":\"slow\"},
     {\"stream\":\"audit\"},{\"stream\":\"mailer\",\"lane\":\"slow\"}]')" >/dev/null
sql "SELECT * FROM act.commit('orders', '[{\"name\":\"placed\",\"data\":{}}]')" >/dev/null
sql "SELECT * FROM act.claim(10, 0, 'w1', 600000)" >/dev/null
sql "SELECT * FROM act.block('[{\"stream\":\"orders-2\",\"by\":\"w1\",\"error\":\"handler failed: boom\"}]')" >/dev/null

hasnt() {
  if grep -Eq -- "$3" "$2"; then fail "$1: a line matches '$3'"; sed 's/^/  | /' "$2" >&2; else pass; fi
}
json() {  # json DESCRIPTION JQ_EXPRESSION [JQ_OPTION]: $out parses and the expression is true
  if jq -e ${3:+"$3"} "$2" "$out" >/dev/null 2>&1; then pass; else fail "$1: jq '$2' does not hold"; sed 's/^/  | /' "$out" >&2; fi
}

# status
check 0 status status && { has status "$out" '^subscriptions: +4$'; has status "$out" '^blocked: +1$'
  has status "$out" '^mode: +(fenced|concurrent)$'; }
check 0 "status --json" status --json && json "status --json" '.subscriptions == 4 and .blocked == 1'

# lag
check 0 lag lag && { has lag "$out" '^stream +lane +at +work mark +age +blocked +leased by +error$'
  has lag "$out" '^orders-2 +slow +-1 +[0-9]+ .* yes +w1 +handler failed: boom$'; has lag "$out" '^audit +default '; }
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
for op in unblock reset release "prioritize --priority 5" "defer --until 2100-01-01T00:00:00Z"; do
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

# release drops leases and nothing else: a dry run lists the leased rows, --yes
# frees them (orders-2 stays blocked, every watermark and retry stays).
kept() { sql "SELECT string_agg(concat_ws(',', stream, at, retry, blocked, error, deferred_at, priority), ';' ORDER BY stream) FROM act.subscriptions"; }
before=$(snapshot)
kept_before=$(kept)
check 0 "release dry run" release --lane slow && { has "release dry run" "$out" '^stream +lane +at +blocked +priority +leased by +error$'
  has "release dry run" "$out" '^orders-2 +slow .* w1 +handler failed: boom$'
  has "release dry run" "$out" '^dry run: 2 subscriptions would change; add --yes to apply$'; }
[ "$(snapshot)" = "$before" ] && pass || fail "a release dry run changed act.subscriptions"
check 0 "release --yes" release --stream mailer --yes && has "release --yes" "$out" '^1 subscriptions changed$'
[ "$(sql "SELECT string_agg(stream, ',' ORDER BY stream) FROM act.subscriptions WHERE leased_by IS NULL")" = mailer ] &&
  pass || fail "release --stream mailer did not free exactly mailer"
check 0 "release again, dry run" release --lane slow && has "release again" "$out" '^dry run: 1 subscriptions would change'
check 0 "release --blocked --yes" release --blocked --yes && has "release --blocked" "$out" '^1 subscriptions changed$'
[ "$(sql "SELECT blocked AND leased_by IS NULL FROM act.subscriptions WHERE stream = 'orders-2'")" = t ] &&
  pass || fail "release --blocked did not free orders-2, or unblocked it"
[ "$(kept)" = "$kept_before" ] && pass || fail "release changed more than leases"
check 0 "release a free row" release --stream mailer --yes && has "release a free row" "$out" '^0 subscriptions changed$'
[ "$(sql "SELECT string_agg(stream, ',' ORDER BY stream) FROM act.claim(10, 0, 'w2', 60000)")" = mailer ] &&
  pass || fail "w2 could not claim the released mailer at once"

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
    has "database error: the hint" "$err" 'run CREATE EXTENSION pg_act\)$'
    [ "$(wc -l <"$err")" -eq 1 ] && pass || fail "database error: not one line on stderr"; }
  check 1 "tail, database error" tail --dsn "dbname=${db}_plain"
  check 1 "verify, database error" verify --dsn "dbname=${db}_plain"
  dropdb "${db}_plain"
else
  fail "cannot create database ${db}_plain"
fi

# tail: twelve events of bulk, then the carts; cart-10 matches the pattern
# cart-1 but is not the stream cart-1.
sql "SELECT count(*) FROM act.commit('bulk', (SELECT jsonb_agg(jsonb_build_object('name', 'Tick', 'data',
     jsonb_build_object('n', i))) FROM generate_series(1, 12) i))" >/dev/null
sql "SELECT count(*) FROM act.commit('cart-1', '[{\"name\":\"Added\",\"data\":{\"price\":12.50}},{\"name\":\"Removed\"}]')" >/dev/null
sql "SELECT count(*) FROM act.commit('cart-10', '[{\"name\":\"Added\",\"pii\":{\"email\":\"ann@example.org\"}}]')" >/dev/null
sql "SELECT count(*) FROM act.commit('cart-2', '[{\"name\":\"Added\"}]')" >/dev/null
# ids WHERE: the ids tail should print, from the table itself, in order.
ids() { sql "SELECT coalesce(string_agg(id::text, ' ' ORDER BY id), '') FROM act.events WHERE name <> '__snapshot__' AND ($1)"; }
printed() { awk '{print $1}' "$out" | paste -sd' '; }
printed_json() { jq -r '.id' "$out" 2>/dev/null | paste -sd' '; }
# same DESCRIPTION GOT WANT
same() { if [ "$2" = "$3" ]; then pass; else fail "$1: printed ids '$2', wanted '$3'"; sed 's/^/  | /' "$out" >&2; fi; }
first_cart=$(sql "SELECT min(id) FROM act.events WHERE stream = 'cart-1'")
all=$(ids true)
check 0 "tail" tail && same "tail: the last 10" "$(printed)" "$(echo "$all" | tr ' ' '\n' | tail -n 10 | paste -sd' ')"
has "tail line" "$out" '^[0-9]+  cart-1  0  Added  [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+[+-][0-9:]+  \{"price":12\.50\}$'
hasnt "tail: no colours off a terminal" "$out" $'\e'
check 0 "tail --limit 3" tail --limit 3 && same "tail --limit 3" "$(printed)" "$(echo "$all" | tr ' ' '\n' | tail -n 3 | paste -sd' ')"
check 0 "tail --limit 0" tail --limit 0 && { [ -s "$out" ] && fail "tail --limit 0 printed events" || pass; }
check 0 "tail --stream exact" tail --stream cart-1 && same "tail --stream cart-1" "$(printed)" "$(ids "stream = 'cart-1'")"
check 0 "tail --stream --regex" tail --stream cart-1 --regex &&
  same "tail --stream cart-1 --regex" "$(printed)" "$(ids "stream IN ('cart-1', 'cart-10')")"
check 0 "tail --stream no such" tail --stream cart- && { [ -s "$out" ] && fail "tail --stream cart- printed events" || pass; }
check 0 "tail --after" tail --after "$first_cart" && same "tail --after" "$(printed)" "$(ids "id > $first_cart")"
check 0 "tail --after --limit" tail --after 2 --limit 3 && same "tail --after 2 --limit 3" "$(printed)" \
  "$(sql "SELECT string_agg(id::text, ' ' ORDER BY id) FROM (SELECT id FROM act.events WHERE id > 2 ORDER BY id LIMIT 3) q")"
check 0 "tail --names" tail --names Removed,Added --stream 'cart-.*' --regex &&
  same "tail --names" "$(printed)" "$(ids "stream LIKE 'cart-%' AND name IN ('Added', 'Removed')")"
check 0 "tail --json" tail --json --limit 20 && {
  json "tail --json: objects with the stable fields" \
    'length > 10 and all(.[]; keys == ["created", "data", "id", "meta", "name", "stream", "version"])' --slurp
  same "tail --json" "$(printed_json)" "$all"
  has "tail --json: numbers as stored" "$out" '"data":\{"price":12\.50\}'; }
[ "$(wc -l <"$out")" -eq "$(echo "$all" | wc -w)" ] && pass || fail "tail --json: not one line per event"
hasnt "tail: no pii without --pii" "$out" 'ann@example'
check 0 "tail --pii" tail --pii --stream cart-10 --json && json "tail --pii" '.pii.email == "ann@example.org"'
if sql "CREATE ROLE $reader LOGIN IN ROLE act_reader" >/dev/null; then
  check 0 "tail --pii, a role without act_pii_reader" --dsn "dbname=$db user=$reader" tail --pii --stream cart-10 --json &&
    { json "tail --pii without the role" '.pii == null and .name == "Added"'; hasnt "tail --pii without the role" "$out" 'ann@'; }
else
  fail "cannot create role $reader"
fi
if script -qec "true" /dev/null >/dev/null 2>&1; then
  timeout -k 5 60 script -qec "$actctl tail --stream cart-1" /dev/null >"$out" 2>&1
  has "tail on a terminal: colours" "$out" $'\e\\['
  NO_COLOR=1 timeout -k 5 60 script -qec "$actctl tail --stream cart-1" /dev/null >"$out" 2>&1
  has "tail on a terminal, NO_COLOR" "$out" 'cart-1  1  Removed'; hasnt "tail on a terminal, NO_COLOR" "$out" $'\e'
else
  fail "no script(1) to run actctl on a terminal"
fi

# What a client wrote reaches no terminal raw: control characters in a
# stream, an event name or data (jsonb escapes C0 in strings, not DEL or C1)
# print as escapes; data beyond 200 bytes is cut, whole with --full or --json.
odd=$'odd\e[2Jstream'
sql "SELECT count(*) FROM act.commit(E'odd\\x1b[2Jstream', jsonb_build_array(jsonb_build_object('name', E'Ring\\x07',
     'data', jsonb_build_object('s', E'del\\x7f c1\\u0085', 'long', repeat('x', 500)))))" >/dev/null
check 0 "tail, control characters" tail --stream "$odd" && {
  has "tail, control characters" "$out" '^[0-9]+  odd\\x1b\[2Jstream  0  Ring\\x07  '
  has "tail, DEL and C1 in data" "$out" 'del\\x7f c1\\u0085'
  hasnt "tail, no ESC" "$out" $'\e'; hasnt "tail, no BEL" "$out" $'\a'; hasnt "tail, no DEL" "$out" $'\x7f'
  hasnt "tail, no C1" "$out" $'\xc2\x85'
  has "tail, data cut" "$out" '"long":"x+… \([0-9]+ more bytes; --full prints them\)$'
  hasnt "tail, data cut" "$out" 'x{500}'; }
check 0 "tail --full" tail --full --stream "$odd" && { has "tail --full" "$out" '"long":"x{500}"'
  hasnt "tail --full" "$out" 'more bytes'; hasnt "tail --full, no ESC" "$out" $'\e'; }
check 0 "tail --json, whole" tail --json --stream "$odd" && json "tail --json, whole" '.data.long | length == 500'

# Bad selectors: one line on stderr, exit 2.
one_line() { [ "$(wc -l <"$err")" -eq 1 ] && pass || { fail "$1: not one line on stderr"; sed 's/^/  | /' "$err" >&2; }; }
check 2 "tail bad regex" tail --stream '(' --regex && { has "tail bad regex" "$err" '^actctl: --stream: invalid regular expression'
  one_line "tail bad regex"; }
check 2 "tail --limit -1" tail --limit -1 && { has "tail --limit -1" "$err" '^actctl: --limit'; one_line "tail --limit -1"; }
check 2 "tail --regex alone" tail --regex && one_line "tail --regex alone"
check 2 "tail --after x" tail --after x && one_line "tail --after x"
check 2 "tail --names ''" tail --names '' && one_line "tail --names ''"
check 2 "tail --after --limit --follow" tail --after 1 --limit 1 --follow && one_line "tail --after --limit --follow"

# follow_start NAME ARGS...: tail --follow in the background (application
# name NAME, output in $work/NAME.out/.err), back once it waits in act.wait.
follow_start() {
  local name=$1
  shift
  PGAPPNAME=$name timeout -k 5 60 "$actctl" tail --follow "$@" >"$work/$name.out" 2>"$work/$name.err" &
  follow_pid=$!
  background="$background $follow_pid"
  for _ in $(seq 100); do
    [ "$(sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = '$name' AND state = 'active'
              AND query LIKE '%act.wait%'")" = 1 ] && return 0
    sleep 0.1
  done
  fail "$name: tail --follow never waited in act.wait"
  return 1
}
# follow_stop SIGNAL WANT_CODE: signals the follower, which exits WANT_CODE.
follow_stop() {
  kill -"$1" "$follow_pid"
  wait "$follow_pid"
  local code=$?
  [ "$code" -eq "$2" ] && pass || { fail "tail --follow after SIG$1: exit $code, wanted $2"; sed 's/^/  err: /' "$work/$name.err" >&2; }
}
# arrived FILE STREAM: a line naming STREAM appears in FILE within 10 seconds.
arrived() {
  for _ in $(seq 100); do grep -q "\"stream\":\"$2\"" "$1" && return 0; sleep 0.1; done
  return 1
}
name=follow_int
if follow_start $name --stream 'cart-.*' --regex --limit 1 --json; then
  before=$(sql "SELECT max(id) FROM act.events WHERE stream LIKE 'cart-%'")
  sql "SELECT count(*) FROM act.commit('elsewhere', '[{\"name\":\"Added\"}]')" >/dev/null
  new=$(sql "SELECT id FROM act.commit('cart-3', '[{\"name\":\"Added\"}]')")
  arrived "$work/$name.out" cart-3 && pass || fail "tail --follow: the commit to cart-3 did not arrive"
  follow_stop INT 0
  out=$work/$name.out
  same "tail --follow: the last one, then the new one" "$(printed_json)" "$before $new"
  [ -s "$work/$name.err" ] && fail "tail --follow wrote to stderr: $(cat "$work/$name.err")" || pass
fi
name=follow_term
follow_start $name && follow_stop TERM 0
name=follow_lost
if follow_start $name; then
  sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '$name'" >/dev/null
  wait "$follow_pid"
  code=$?
  [ "$code" -eq 2 ] && pass || fail "tail --follow, connection lost: exit $code, wanted 2"
  has "tail --follow, connection lost" "$work/$name.err" '^actctl: connection lost'
fi
# Concurrent mode: a commit in flight holds the horizon back, and a later
# commit that is already visible is not printed, even for its exact stream
# (act.query caps that case only because tail asks it to).
if [ "$(sql 'SELECT act.mode()')" = concurrent ]; then
  psql -qX -d "$db" >/dev/null 2>&1 <<'SQL' &
BEGIN;
SELECT count(*) FROM act.commit('held', '[{"name": "Added"}]');
SELECT pg_sleep(3);
COMMIT;
SQL
  holder=$!
  background="$background $holder"
  for _ in $(seq 100); do [ "$(sql 'SELECT count(*) FROM act.horizon_holders()')" -gt 0 ] && break; sleep 0.1; done
  late=$(sql "SELECT id FROM act.commit('late', '[{\"name\":\"Added\"}]')")
  check 0 "tail, horizon held" tail --stream late && { [ -s "$out" ] && fail "tail printed id $late above the horizon" || pass; }
  wait "$holder"
  check 0 "tail, horizon released" tail --stream late && same "tail, horizon released" "$(printed)" "$late"
fi

# verify: a clean log, then tampered chains.
streams=$(sql "SELECT count(DISTINCT stream) FROM act.events")
events=$(sql "SELECT count(*) FROM act.events")
check 0 "verify" verify && {
  has "verify summary" "$out" "^checked $streams streams, $events events in [0-9.]+ s: every hash chain holds\$"
  hasnt "verify: nothing broken" "$out" '^broken'
  has "verify progress" "$err" "^verify: $streams streams, $events events to check\$"
  has "verify progress" "$err" "^verify: $streams streams, $events events checked in "
  hasnt "verify: progress only on stderr" "$out" '^verify'; }
check 0 "verify --json" verify --json &&
  json "verify --json" ".valid and .broken == [] and .streams == $streams and .events == $events and .broken_streams == 0"
sql "UPDATE act.events SET data = '{\"price\": 1.00}' WHERE stream = 'cart-1' AND version = 1"
sql "DELETE FROM act.events WHERE stream = 'bulk' AND version = 5"
check 3 "verify, tampered" verify && {
  has "verify names cart-1" "$out" '^broken  cart-1  version 1 of 2 events: the stored hash of version 1 does not match'
  has "verify names bulk" "$out" '^broken  bulk  version 6 of 11 events: version 5 is missing$'
  [ "$(grep -c '^broken' "$out")" -eq 2 ] && pass || fail "verify, tampered: not two broken streams"
  has "verify, tampered: summary" "$out" "^checked $streams streams, $((events - 1)) events in [0-9.]+ s: 2 broken\$"; }
check 3 "verify --json, tampered" verify --json && json "verify --json, tampered" \
  '(.valid | not) and .broken_streams == 2 and ([.broken[] | [.stream, .first_bad_version]] == [["bulk", 6], ["cart-1", 1]])'
check 3 "verify as an act_reader role" --dsn "dbname=$db user=$reader" verify &&
  has "verify as act_reader" "$out" ': 2 broken$'
check 0 "verify --stream, an intact one" verify --stream cart-10 && has "verify --stream" "$out" '^checked 1 streams, 1 events'
check 3 "verify --stream --regex" verify --stream 'cart-.*' --regex && {
  has "verify --regex" "$out" '^broken  cart-1 '; hasnt "verify --regex" "$out" '^broken  bulk'
  has "verify --regex" "$out" "^checked $(sql "SELECT count(DISTINCT stream) FROM act.events WHERE stream ~ '^cart-'") streams, "; }
check 2 "verify, no such stream" verify --stream cart-99 && { has "verify, no such stream" "$err" '^actctl: --stream'
  one_line "verify, no such stream"; }
check 2 "verify bad regex" verify --stream '[' --regex && one_line "verify bad regex"
check 2 "verify --regex alone" verify --regex && one_line "verify --regex alone"
check 2 "verify, unreachable" verify --dsn "host=/nonexistent port=1 dbname=$db"
if script -qec "true" /dev/null >/dev/null 2>&1; then
  timeout -k 5 60 script -qec "$actctl verify" /dev/null >"$out" 2>&1
  has "verify on a terminal: the bar" "$out" $'\rverify \\[[#-]+\\] [0-9]+/[0-9]+ streams'
  has "verify on a terminal: the result" "$out" '2 broken'
fi

# --help everywhere.
for c in status lag blocked metrics unblock reset prioritize defer tail verify; do
  check 0 "$c --help" "$c" --help && has "$c --help" "$out" 'Usage'
done

echo "$passed $failed"
