#!/usr/bin/env bash
# A primary lost under load, with pg_auto_failover (docs/operations.md,
# "Failover"): a monitor, a primary and a synchronous standby on 127.0.0.1,
# pg_act preloaded (concurrent mode), a commit storm and drainers through
# the formation's multi-host connection string (test/stress/failover_storm.cpp),
# the C++ client committing through one store all along
# (test/stress/failover_client.cpp), and KILLS times: the primary's node killed
# outright (SIGKILL of its pg_autoctl and postmaster, as a lost machine), the
# standby promoted, the old node started again to rejoin as the standby.
# Then every commit the storm saw acknowledged is in the log with its id,
# no stream has a gap or a duplicate, drainers claiming through the same
# URI handled every event exactly once, every chain verifies, the verifiable
# log agrees with every checkpoint, and claims work on the last primary.
# Details go to stderr, the last line is "PASSED FAILED".
# Usage: test/run-failover.sh [KILLS] [WRITERS]
set -uo pipefail
cd "$(dirname "$0")/.."
kills=${1:-2}
writers=${2:-4}
suite="failover"
# shellcheck source=test/operations/checks.sh
source test/operations/checks.sh

# Every connection here names its node: pg_autoctl would otherwise take the
# caller's PG* settings (make test's cluster) for its own local server.
unset PGHOST PGPORT PGUSER PGDATABASE PGSERVICE
bindir=$(pg_config --bindir)
dir=$(mktemp -d /tmp/pg_act_failover.XXXXXX)
chmod 755 "$dir"
chown postgres: "$dir"
# pg_autoctl keeps its configuration and state under XDG directories: the run's own.
as_postgres() {
  runuser -u postgres -- env PATH="$bindir:$PATH" XDG_CONFIG_HOME="$dir/xdg/config" XDG_DATA_HOME="$dir/xdg/data" \
    XDG_RUNTIME_DIR="$dir/xdg/run" "$@"
}
nodes=(a b)
declare -A port=([monitor]=$((20000 + RANDOM % 10000)) [a]=$((30000 + RANDOM % 5000)) [b]=$((35000 + RANDOM % 5000)))
declare -A keeper=()
# start NODE: its pg_autoctl in a process group of its own (killed whole).
start() {
  local deadline=$((SECONDS + 10)) group=""
  as_postgres setsid pg_autoctl run --pgdata "$dir/$1" >>"$dir/$1.log" 2>&1 &
  # setsid's child leads the group: pg_autoctl, its supervisors and Postgres.
  while [ -z "$group" ] && [ $SECONDS -lt $deadline ]; do
    group=$(pgrep -o -f "^pg_autoctl run --pgdata $dir/$1\$")
    [ -n "$group" ] || sleep 0.1
  done
  keeper[$1]=$group
}
# kill_node NODE: pg_autoctl, its postmaster and backends at once, as a lost machine would.
kill_node() {
  local postmaster
  postmaster=$(head -1 "$dir/$1/postmaster.pid" 2>/dev/null)
  kill -KILL -- "-${keeper[$1]}" 2>/dev/null
  [ -n "$postmaster" ] && kill -KILL "$postmaster" 2>/dev/null
  keeper[$1]=""
}
cleanup() {
  for node in monitor "${nodes[@]}"; do
    [ -n "${keeper[$node]:-}" ] && kill -TERM -- "-${keeper[$node]}" 2>/dev/null
  done
  sleep 1
  for node in monitor "${nodes[@]}"; do
    [ -n "${keeper[$node]:-}" ] && kill -KILL -- "-${keeper[$node]}" 2>/dev/null
    [ -f "$dir/$node/postmaster.pid" ] && as_postgres pg_ctl -D "$dir/$node" -m immediate stop >/dev/null 2>&1
  done
  rm -rf "$dir"
}
trap cleanup EXIT
fail_setup() {
  echo "--- $suite: $1" >&2
  tail -n 30 "$dir"/*.log >&2 2>/dev/null
  echo "$passed $((failed + 1))"
  exit 0
}
on() {  # on NODE SQL...: psql to the failover database of NODE over 127.0.0.1
  local node=$1
  shift
  PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "${port[$node]}" \
    -U postgres -d failover "$@"
}
monitor_sql() {
  psql -X -q -At -h 127.0.0.1 -p "${port[monitor]}" -U autoctl_node -d pg_auto_failover -c "$1" 2>/dev/null
}
# state NODE: the state the monitor last heard NODE report.
state() { monitor_sql "SELECT reportedstate FROM pgautofailover.node WHERE nodename = '$1'"; }
# until_state NODE STATES SECONDS: STATES is one state or several, as a|b.
until_state() {
  local deadline=$((SECONDS + $3))
  while [ $SECONDS -lt $deadline ]; do
    [[ "$(state "$1")" =~ ^($2)$ ]] && return 0
    sleep 0.5
  done
  echo "--- $suite: $1 did not reach $2 in $3 s (it is $(state "$1"))" >&2
  return 1
}

# The monitor, with health checks quick enough for a test (a lost primary is
# noticed in a few seconds instead of about thirty).
as_postgres pg_autoctl create monitor --pgdata "$dir/monitor" --pgport "${port[monitor]}" --hostname 127.0.0.1 \
  --listen 127.0.0.1 --auth trust --no-ssl >"$dir/monitor.log" 2>&1 || fail_setup "pg_autoctl create monitor failed"
{
  echo "pgautofailover.health_check_period = 1000"
  echo "pgautofailover.health_check_timeout = 1000"
  echo "pgautofailover.health_check_max_retries = 1"
  echo "pgautofailover.health_check_retry_delay = 500"
  echo "pgautofailover.node_considered_unhealthy_timeout = 3000"
  echo "pgautofailover.startup_grace_period = 3000"
  echo "pgautofailover.primary_demote_timeout = 5000"  # a killed primary never demotes itself
} >>"$dir/monitor/postgresql.conf"
start monitor
# pg_autoctl create may have left the monitor's Postgres running: read the settings now.
deadline=$((SECONDS + 30))
until psql -X -q -At -h 127.0.0.1 -p "${port[monitor]}" -U postgres -d pg_auto_failover -c 'SELECT pg_reload_conf()' \
  >/dev/null 2>&1; do
  [ $SECONDS -lt $deadline ] || fail_setup "the monitor did not start"
  sleep 0.5
done
monitor_uri="postgres://autoctl_node@127.0.0.1:${port[monitor]}/pg_auto_failover?sslmode=disable"

# The nodes: pg_act preloaded on each (a standby is a copy of the primary's
# configuration, so it comes along).
for node in "${nodes[@]}"; do
  as_postgres pg_autoctl create postgres --pgdata "$dir/$node" --pgport "${port[$node]}" --hostname 127.0.0.1 \
    --listen 127.0.0.1 --name "$node" --monitor "$monitor_uri" --auth trust --no-ssl --dbname failover \
    >>"$dir/$node.log" 2>&1 || fail_setup "pg_autoctl create postgres $node failed"
  if [ "$node" = a ]; then
    echo "shared_preload_libraries = 'pg_act'" >>"$dir/a/postgresql.conf"
    as_postgres pg_ctl -D "$dir/a" -w -m fast restart -l "$dir/a.pg.log" >/dev/null 2>&1 || true
  fi
  start "$node"
  if [ "$node" = a ]; then
    until_state a single 60 || fail_setup "the first node did not become the primary"
    on a -c 'CREATE EXTENSION pg_act' || fail_setup "CREATE EXTENSION on the first node failed"
  fi
done
until_state b secondary 120 || fail_setup "the second node did not become a standby"
until_state a primary 30 || fail_setup "the first node did not turn to synchronous replication"
check "pg_act is preloaded on the standby too" test "$(on b -c "SHOW shared_preload_libraries")" = pg_act
check "the primary replicates synchronously" test -n "$(on a -c "SHOW synchronous_standby_names")"

conninfo="host=127.0.0.1,127.0.0.1 port=${port[a]},${port[b]} user=postgres dbname=failover"
conninfo+=" target_session_attrs=read-write connect_timeout=2"
primary_now() {  # the node that is the primary now
  local node
  for node in "${nodes[@]}"; do
    [ "$(on "$node" -c 'SELECT NOT pg_is_in_recovery()' 2>/dev/null)" = t ] && { echo "$node"; return; }
  done
}
other() { [ "$1" = a ] && echo b || echo a; }

# The storm, and the kills while it runs.
subscriptions=$(for w in $(seq 0 $((writers - 1))); do printf '{"stream": "drain-%d", "source": "storm-%d"}\n' "$w" "$w"; done |
  jq -s -c .)
on a -c "SELECT count(*) FROM act.subscribe('$subscriptions')" \
  -c 'CREATE TABLE storm_handled (subscription text NOT NULL, event_id bigint NOT NULL)' >/dev/null
stop_file="$dir/stop"
build/failover_storm 600 "$writers" "$conninfo" "$stop_file" >"$dir/ledger" 2>"$dir/storm.log" &
storm=$!
build/failover_client "$conninfo" "$stop_file" >"$dir/client-ledger" 2>"$dir/client.log" &
client=$!
done_kills=0
checkpoints=0
for kill in $(seq "$kills"); do
  sleep 3  # commits under way
  victim=$(primary_now)
  [ -n "$victim" ] || break
  survivor=$(other "$victim")
  # A checkpoint the node about to be lost states: the log after the
  # failovers must still agree with it (act.verify_log checks every one).
  on "$victim" -c 'SELECT length(act.checkpoint())' >/dev/null && checkpoints=$((checkpoints + 1))
  started=$SECONDS
  kill_node "$victim"
  until_state "$survivor" 'wait_primary|primary' 60 || break
  echo "# kill $kill: $victim lost, $survivor promoted in $((SECONDS - started)) s" >&2
  start "$victim"
  until_state "$victim" secondary 120 || break
  until_state "$survivor" primary 30 || break
  echo "# kill $kill: $victim back as the standby $((SECONDS - started)) s after the kill" >&2
  done_kills=$kill
done
sleep 2
touch "$stop_file"
wait "$storm"
storm_status=$?
wait "$client"
client_status=$?
cat "$dir/storm.log" "$dir/client.log" >&2
check "the storm's writers and drainers all finished (exit $storm_status)" test "$storm_status" = 0
check "the C++ client's store came back by itself after the failovers (exit $client_status)" test "$client_status" = 0
cat "$dir/client-ledger" >>"$dir/ledger"
check "$done_kills of $kills kills: each primary lost, its standby promoted, the node back as the standby" \
  test "$done_kills" = "$kills"

last=$(primary_now)
check "a primary at the end" test -n "$last"
acknowledged=$(wc -l <"$dir/ledger")
check "the storm had commits acknowledged ($acknowledged)" test "$acknowledged" -gt 0
on "$last" -c 'CREATE TABLE acknowledged (stream text, version int, id bigint)' \
  -c "\\copy acknowledged FROM '$dir/ledger'"
check "every acknowledged commit is in the log, with its id" \
  test "$(on "$last" -c 'SELECT count(*) FROM acknowledged a LEFT JOIN act.events e USING (stream, version, id) WHERE e.id IS NULL')" = 0
check "no stream has a gap in its versions" \
  test "$(on "$last" -c "SELECT count(*) FROM (SELECT stream, max(version) + 1 - count(*) AS gap FROM act.events WHERE stream LIKE 'storm-%' GROUP BY stream) s WHERE gap <> 0")" = 0
check "no token was written twice" \
  test "$(on "$last" -c "SELECT count(*) FROM (SELECT data->>'token' FROM act.events WHERE stream LIKE 'storm-%' GROUP BY 1 HAVING count(*) > 1) d")" = 0
check "the drain handled every storm event, through every failover" \
  test "$(on "$last" -c "SELECT count(*) FROM (SELECT 'drain-' || substr(stream, 7), id FROM act.events
    WHERE stream LIKE 'storm-%' EXCEPT SELECT subscription, event_id FROM storm_handled) missing")" = 0
check "the drain handled no event twice, and nothing else" \
  test "$(on "$last" -c "SELECT (SELECT count(*) FROM storm_handled) = (SELECT count(*) FROM act.events WHERE stream LIKE 'storm-%')")" = t
check "every chain verifies" test "$(on "$last" -c 'SELECT count(*) FROM act.verify() WHERE NOT valid')" = 0
check "every checkpoint stated before a kill survived it ($checkpoints)" \
  test "$(on "$last" -c 'SELECT count(*) FROM act.checkpoints')" -ge "$checkpoints"
on "$last" -c 'SELECT length(act.checkpoint())' >/dev/null
check "the verifiable log agrees with the events and every checkpoint" \
  test "$(on "$last" -c 'SELECT count(*) FROM act.verify_log()')" = 0
check "the horizon on the last primary covers the last event" \
  test "$(on "$last" -c 'SELECT act.horizon() >= (SELECT max(id) FROM act.events)')" = t
on "$last" -c "SELECT count(*) FROM act.commit('storm-0', '[{\"name\": \"After\"}]')" >/dev/null
check "claims work on the last primary" \
  test "$(on "$last" -c "SELECT count(*) FROM act.claim(1, 1, 'after-failover', 10000)")" -ge 1
echo "# $acknowledged commits acknowledged through $done_kills kills, $(on "$last" -c 'SELECT count(*) FROM acknowledged a LEFT JOIN act.events e USING (stream, version, id) WHERE e.id IS NULL') lost" >&2
echo "$passed $failed"
