#!/usr/bin/env bash
# What a failover can lose, shown on purpose (docs/operations.md, "Failover"):
# a primary and a streaming standby, concurrent mode, the primary's WAL
# sender frozen (SIGSTOP) so the standby falls behind, commits made, the
# primary killed and the standby promoted.
#   asynchronous: the commits were acknowledged and are gone; the new primary
#                 hands their ids to other events
#   synchronous:  no commit is acknowledged while the standby cannot confirm
#                 it (it waits in SyncRep), so none acknowledged is lost
# Details go to stderr, the last line is "PASSED FAILED".
set -uo pipefail
cd "$(dirname "$0")/.."
suite="replication-loss"
# shellcheck source=test/operations/checks.sh
source test/operations/checks.sh
bindir=$(pg_config --bindir)

# run MODE: one primary/standby pair with replication MODE (async or sync).
run() {
  local mode=$1 dir sender acknowledged=0 i lost reissued waiting
  dir=$(mktemp -d /tmp/pg_act_loss.XXXXXX)
  chmod 755 "$dir"
  local settings=("shared_preload_libraries = 'pg_act'")
  [ "$mode" = sync ] && settings+=("synchronous_standby_names = 'loss_standby'")
  scripts/cluster.sh start "$dir/primary" "${settings[@]}" &&
    scripts/cluster.sh standby "$dir/primary" "$dir/standby" "cluster_name = 'loss_standby'" \
      "synchronous_standby_names = ''" ||
    { check "$mode: the pair starts" false; rm -rf "$dir"; return; }
  on() {  # on primary|standby psql-arguments...
    local server=$1
    shift
    # shellcheck disable=SC1090
    (source "$dir/$server/env" && sql postgres "$@")
  }
  on primary -c 'CREATE EXTENSION pg_act'
  on primary -c "SELECT count(*) FROM act.commit('before', '[{\"name\": \"A\"}]')" >/dev/null
  local deadline=$((SECONDS + 30))
  until [ "$(on standby -c "SELECT count(*) FROM pg_extension WHERE extname = 'pg_act'" 2>/dev/null)" = 1 ] &&
    [ "$(on primary -c 'SELECT count(*) FROM pg_stat_replication WHERE replay_lsn >= pg_current_wal_lsn()')" = 1 ]; do
    [ $SECONDS -lt $deadline ] || break
    sleep 0.2
  done
  sender=$(on primary -c 'SELECT pid FROM pg_stat_replication')
  check "$mode: the standby streams" test -n "$sender"
  kill -STOP "$sender"
  if [ "$mode" = async ]; then
    for i in $(seq 10); do
      # 4 events a commit: 40 ids, past the 32 the sequence logs ahead.
      on primary -c "SELECT max(id) FROM act.commit('acknowledged', '[{\"name\": \"A\", \"data\": {\"n\": $i}},
        {\"name\": \"B\"}, {\"name\": \"C\"}, {\"name\": \"D\"}]')" >>"$dir/acknowledged" &&
        acknowledged=$((acknowledged + 1))
    done
    check "async: 10 commits acknowledged with the standby behind" test "$acknowledged" = 10
  else
    (on primary -c "SELECT id FROM act.commit('acknowledged', '[{\"name\": \"A\"}]')" >>"$dir/acknowledged") &
    sleep 2
    waiting=$(on primary -c "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND query LIKE '%act.commit(''acknowledged''%'")
    check "sync: the commit waits for the standby instead of returning" test "$waiting" = 1
    check "sync: nothing acknowledged meanwhile" test ! -s "$dir/acknowledged"
  fi
  # The primary lost: no shutdown, nothing more sent.
  # (the frozen WAL sender killed too, or it would send the rest once let go)
  kill -KILL "$(head -1 "$dir/primary/data/postmaster.pid")" "$sender"
  wait 2>/dev/null
  runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/standby/data" -w promote >/dev/null
  lost=0
  while read -r id; do
    [ -n "$id" ] || continue
    [ "$(on standby -c "SELECT count(*) FROM act.events WHERE id = $id AND stream = 'acknowledged'")" = 1 ] ||
      lost=$((lost + 1))
  done <"$dir/acknowledged"
  echo "# $mode: $acknowledged commits acknowledged with the standby behind, $lost of them lost at the failover" >&2
  if [ "$mode" = async ]; then
    check "async: the acknowledged commits are lost ($lost of 10)" test "$lost" = 10
    on standby -c "SELECT count(*) FROM act.commit('after', '[{\"name\": \"A\"}, {\"name\": \"B\"}]')" >/dev/null
    reissued=$(on standby -c "SELECT count(*) FROM act.events WHERE stream = 'after' AND id <= $(tail -1 "$dir/acknowledged")")
    check "async: the new primary's log is intact" test "$(on standby -c 'SELECT count(*) FROM act.verify() WHERE NOT valid')" = 0
    echo "# async: $reissued ids the old primary had acknowledged now belong to other events" >&2
  else
    check "sync: no acknowledged commit lost" test "$lost" = 0
    check "sync: the new primary commits" \
      test "$(on standby -c "SELECT count(*) FROM act.commit('after', '[{\"name\": \"A\"}]')")" = 1
  fi
  scripts/cluster.sh stop "$dir/standby" >/dev/null 2>&1
  scripts/cluster.sh discard "$dir/primary"
  rm -rf "$dir"
}

run async
run sync
echo "$passed $failed"
