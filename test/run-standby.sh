#!/usr/bin/env bash
# Reading on a hot standby (docs/operations.md, "Hot standbys"), in the mode
# given (fenced or concurrent): a primary and a streaming standby of its own,
# 8 writers on the primary while readers follow `after` on the standby (every
# committed id reaches them once and in order), act.wait on the standby
# woken by replay, every call that writes refused there with 25006; in
# concurrent mode, the standby's horizon standing still
# while the primary's beacon is stopped. Details go to stderr, the last line
# is "PASSED FAILED". Usage: test/run-standby.sh fenced|concurrent [SECONDS of writers]
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-concurrent}
seconds=${2:-3}
suite="standby/$mode"
# shellcheck source=test/operations/checks.sh
source test/operations/checks.sh

dir=$(mktemp -d /tmp/pg_act_standby.XXXXXX)
chmod 755 "$dir"
cleanup() {
  scripts/cluster.sh stop "$dir/standby" >/dev/null 2>&1
  scripts/cluster.sh stop "$dir/primary" >/dev/null 2>&1
  rm -rf "$dir"
}
trap cleanup EXIT
settings=()
[ "$mode" = concurrent ] && settings=("shared_preload_libraries = 'pg_act'")
scripts/cluster.sh start "$dir/primary" "${settings[@]}" && scripts/cluster.sh standby "$dir/primary" "$dir/standby" ||
  { echo "0 1"; exit 0; }
on() {  # on primary|standby psql-arguments...: sql in database standby_test of that server
  local server=$1
  shift
  # shellcheck disable=SC1090
  (source "$dir/$server/env" && sql standby_test "$@")
}
# sqlstate_on_standby SQL: the SQLSTATE the standby answers SQL with ("ok" when none).
sqlstate_on_standby() {
  local out
  # shellcheck disable=SC1091
  out=$(source "$dir/standby/env" && psql -X -q -At -d standby_test -v VERBOSITY=sqlstate -c "$1" 2>&1 >/dev/null)
  [ -z "$out" ] && { echo ok; return; }
  echo "$out" | sed -n 's/^ERROR: *\([0-9A-Z]\{5\}\).*/\1/p' | head -n 1
}
# shellcheck disable=SC1091
(source "$dir/primary/env" && createdb standby_test && sql standby_test -c 'CREATE EXTENSION pg_act') || { echo "0 1"; exit 0; }
replayed() {  # replayed: waits until the standby has replayed all the primary has written
  local lsn deadline=$((SECONDS + 30))
  lsn=$(on primary -c 'SELECT pg_current_wal_lsn()')
  while [ $SECONDS -lt $deadline ]; do
    [ "$(on standby -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'" 2>/dev/null)" = t ] && return 0
    sleep 0.1
  done
  return 1
}
check "the standby replays the primary's database" replayed

# 1. Gap safety: readers on the standby.
standby_conninfo=$(source "$dir/standby/env" && echo "host=$PGHOST port=$PGPORT dbname=standby_test")
result=$(source "$dir/primary/env" && PGDATABASE=standby_test build/gap_safety "$seconds" "$standby_conninfo" 2>&1)
echo "$result" | grep -v '^[0-9]* [0-9]*$' >&2
read -r gap_passed gap_failed < <(echo "$result" | tail -n 1)
passed=$((passed + ${gap_passed:-0}))
failed=$((failed + ${gap_failed:-1}))

# 2. act.wait on the standby wakes when the commit is replayed (a timeout
#    would return the horizon it was given).
horizon=$(on standby -c 'SELECT act.horizon()')
waited="$dir/waited"
(on standby -c "SELECT act.wait($horizon, 20000)" >"$waited") &
waiter=$!
sleep 0.5
on primary -c "SELECT count(*) FROM act.commit('after-wait', '[{\"name\": \"A\"}]')" >/dev/null
wait "$waiter"
check "act.wait on the standby returns past $horizon once the commit is replayed" test "$(cat "$waited")" -gt "$horizon"
check "the standby reads the replayed event" \
  test "$(on standby -c "SELECT count(*) FROM act.query(stream => 'after-wait')")" = 1

# 3. Calls that write: 25006 (a standby cannot be written to, so the check
#    is that each says so clearly, with the code the contract gives).
on primary -c "SELECT count(*) FROM act.subscribe('[{\"stream\": \"after-wait\"}]')" >/dev/null
replayed
writes=(
  "SELECT * FROM act.commit('s', '[{\"name\": \"A\"}]')"
  "SELECT * FROM act.claim(1, 1, 'w', 1000)"
  "SELECT * FROM act.claim_events(1, 1, 'w', 1000)"
  "SELECT * FROM act.ack('[]')"
  "SELECT * FROM act.block('[]')"
  "SELECT * FROM act.subscribe('[{\"stream\": \"s\"}]')"
  "SELECT act.reset('{\"stream\": \"after-wait\"}')"
  "SELECT * FROM act.seal()"
  "SELECT * FROM act.checkpoint()"
  "SELECT * FROM act.truncate('[{\"stream\": \"after-wait\"}]')"
  "SELECT act.forget_pii('after-wait')"
)
for call in "${writes[@]}"; do
  check "on the standby, $call fails with 25006" test "$(sqlstate_on_standby "$call")" = 25006
done
check "a check-only act.commit (no events) reads, and runs on the standby" \
  test "$(sqlstate_on_standby "SELECT * FROM act.commit('after-wait', '[]')")" = ok

# 4. Concurrent mode: the standby's horizon is the beacon's.
if [ "$mode" = concurrent ]; then
  beacon() {  # beacon MS: the primary's act.horizon_beacon_ms, applied
    on primary -c "ALTER SYSTEM SET act.horizon_beacon_ms = $1" -c 'SELECT pg_reload_conf()' >/dev/null
    sleep 0.5
  }
  check "the beacon worker runs on the primary" \
    test "$(on primary -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pg_act horizon beacon'")" = 1
  check "no beacon worker on the standby" \
    test "$(on standby -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pg_act horizon beacon'")" = 0
  beacon 0
  before=$(on standby -c 'SELECT act.horizon()')
  last=$(on primary -c "SELECT max(id) FROM act.commit('beacon-off', '[{\"name\": \"A\"}]')")
  replayed
  sleep 0.3
  check "beacon stopped: the event is replayed on the standby" \
    test "$(on standby -c "SELECT count(*) FROM act.events WHERE id = $last")" = 1
  check "beacon stopped: the standby's horizon stays at $before" test "$(on standby -c 'SELECT act.horizon()')" = "$before"
  check "beacon stopped: act.query after $before on the standby stops at the horizon" \
    test "$(on standby -c "SELECT count(*) FROM act.query(after => $before)")" = 0
  beacon 5
  check "beacon back: the standby's horizon reaches $last" \
    test "$(on standby -c "SELECT act.wait($((last - 1)), 10000)")" -ge "$last"
fi

scripts/cluster.sh stop "$dir/standby" || check "the standby's log shows no crash" false
scripts/cluster.sh stop "$dir/primary" || check "the primary's log shows no crash" false
echo "$passed $failed"
