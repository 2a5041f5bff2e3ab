#!/usr/bin/env bash
# The seal worker (docs/verifiable-log.md, "Sealing") on the cluster the PG*
# environment points at. Preloaded: committed events get sealed within a few
# intervals without anyone calling act.seal(); act.seal_interval_ms = 0 stops
# it; databases come and go (DROP DATABASE is never held up by a sealer); a
# database on a version without the verifiable log is left alone. Not
# preloaded: nothing seals by itself. The last line on stdout is "PASSED FAILED".
set -uo pipefail
cd "$(dirname "$0")/.."
suite="seal-worker"
# shellcheck source=test/operations/checks.sh
source test/operations/checks.sh

# sealed_within DB SECONDS: whether the tree covers the last event within SECONDS.
sealed_within() {
  local db=$1 deadline=$((SECONDS + $2))
  while [ $SECONDS -lt "$deadline" ]; do
    [ "$(sql "$db" -c 'SELECT sealed_upto_id >= (SELECT max(id) FROM act.events) FROM act.log_size()')" = t ] && return 0
    sleep 0.2
  done
  return 1
}
commit_one() {  # commit_one DB STREAM
  sql "$1" -c "SELECT count(*) FROM act.commit('$2', '[{\"name\": \"A\"}]')" >/dev/null
}
fresh() {  # fresh DB [VERSION]
  dropdb --if-exists "$1" 2>/dev/null
  createdb "$1" && sql "$1" -c "CREATE EXTENSION pg_act ${2:+VERSION '$2'}" >/dev/null
}

mode=$(sql postgres -c "SELECT CASE WHEN current_setting('shared_preload_libraries') LIKE '%pg_act%' THEN 'concurrent' ELSE 'fenced' END")
if [ "$mode" = fenced ]; then
  fresh seal_worker_a
  commit_one seal_worker_a s-1
  sleep 2
  check "not preloaded: no seal worker runs" \
    test "$(sql postgres -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pg_act seal%'")" = 0
  check "not preloaded: nothing is sealed until act.seal() is called" \
    test "$(sql seal_worker_a -c 'SELECT size FROM act.log_size()')" = 0
  dropdb seal_worker_a
  echo "$passed $failed"
  exit 0
fi

check "preloaded: the seal launcher runs" \
  test "$(sql postgres -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pg_act seal launcher'")" = 1
fresh seal_worker_a
commit_one seal_worker_a s-1
check "a committed event is sealed by the worker within 8 s (a database seen without the log is looked at again after 5 s)" sealed_within seal_worker_a 8
check "and the worker's tree verifies" test "$(sql seal_worker_a -c 'SELECT count(*) FROM act.verify_log()')" = 0

# One sealer an interval per database, however often the launcher wakes.
# A sealer commits two transactions in its database (its connection's
# start-up and its seal), so 4 s at one a second is about 8, 10 when the
# window catches a fifth; sealers back to back (the fault this guards
# against) are hundreds. The bound allows three a second. Autovacuum is
# paused meanwhile: after CREATE EXTENSION it may visit the new database's
# catalogs, a transaction a table.
xacts() { sql postgres -c "SELECT pg_stat_force_next_flush(), xact_commit FROM pg_stat_database WHERE datname = 'seal_worker_a'" | cut -d'|' -f2; }
sql postgres -c 'ALTER SYSTEM SET autovacuum = off' -c 'SELECT pg_reload_conf()' >/dev/null
sleep 0.5
sql postgres -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'" >/dev/null
before=$(xacts)
sleep 4
after=$(xacts)
sql postgres -c 'ALTER SYSTEM RESET autovacuum' -c 'SELECT pg_reload_conf()' >/dev/null
check "about one sealer a second in a database (not a storm of them): $((after - before)) transactions in 4 s" \
  test $((after - before)) -ge 2 -a $((after - before)) -le 24

sql postgres -c 'ALTER SYSTEM SET act.seal_interval_ms = 0' -c 'SELECT pg_reload_conf()' >/dev/null
sleep 1.5  # the launcher's current wait ends before it reads the setting
commit_one seal_worker_a s-2
sleep 2.5
check "act.seal_interval_ms = 0 stops the worker" \
  test "$(sql seal_worker_a -c 'SELECT sealed_upto_id < (SELECT max(id) FROM act.events) FROM act.log_size()')" = t
sql postgres -c 'ALTER SYSTEM RESET act.seal_interval_ms' -c 'SELECT pg_reload_conf()' >/dev/null
check "and it seals again once the setting is reset" sealed_within seal_worker_a 6

# Databases come and go while the worker seals: DROP DATABASE never fails.
dropped=0
for i in 1 2 3 4 5; do
  fresh seal_worker_churn
  commit_one seal_worker_churn "c-$i"
  sleep 0.$((RANDOM % 9 + 1))
  dropdb seal_worker_churn && dropped=$((dropped + 1))
done
check "five databases created, committed to and dropped while the worker runs" test "$dropped" = 5

# Several databases with the log: every one of them is sealed, none starved.
fresh seal_worker_b
fresh seal_worker_c
for db in seal_worker_a seal_worker_b seal_worker_c; do commit_one "$db" "m-1"; done
all_sealed() { sealed_within seal_worker_a 8 && sealed_within seal_worker_b 8 && sealed_within seal_worker_c 8; }
check "three databases with the log and one without: each is sealed within 8 s" all_sealed
dropdb seal_worker_b
dropdb seal_worker_c

fresh seal_worker_old 0.2.1
commit_one seal_worker_old s-1
commit_one seal_worker_a s-3
check "a database on 0.2.1 beside one on the current version: the current one is still sealed" sealed_within seal_worker_a 8
check "and the old one still commits" test "$(sql seal_worker_old -c "SELECT count(*) FROM act.commit('s-2', '[{\"name\": \"B\"}]')")" = 1
dropdb seal_worker_old
dropdb seal_worker_a
echo "$passed $failed"
