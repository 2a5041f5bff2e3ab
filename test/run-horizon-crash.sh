#!/usr/bin/env bash
# A backend SIGKILLed after act.commit and before COMMIT must not pin the
# horizon: the postmaster restarts every backend and shared memory starts over
# without bounds. Runs on a cluster of its own in concurrent mode (the crash
# is expected here, so its log is not checked for one); then removal records
# across a killed truncate and an immediate restart; details go to stderr,
# the last line is "PASSED FAILED".
set -uo pipefail
cd "$(dirname "$0")/.."

dir=$(mktemp -d /tmp/pg_act_crash.XXXXXX)
chmod 755 "$dir"
cleanup() {
  scripts/cluster.sh discard "$dir/pg"
  rm -rf "$dir"
}
trap cleanup EXIT
scripts/cluster.sh start "$dir/pg" "shared_preload_libraries = 'pg_act'" || { echo "0 1"; exit 0; }
# shellcheck disable=SC1091
source "$dir/pg/env"
sql() { psql -X -q -At -v ON_ERROR_STOP=1 -d postgres -c "$1"; }

passed=0
failed=0
check() {  # check NAME ACTUAL EXPECTED
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    echo "not ok: $1: got '$2', expected '$3'" >&2
  fi
}

PGOPTIONS='-c client_min_messages=warning' sql "CREATE EXTENSION pg_act"
# A writer that commits its event and then waits inside its transaction.
psql -X -q -d postgres -c "BEGIN; SELECT act.commit('doomed', '[{\"name\": \"E\"}]'); SELECT pg_sleep(60);" \
  >/dev/null 2>&1 &
writer_pid=""
for _ in $(seq 100); do
  writer_pid=$(sql "SELECT pid FROM act.horizon_holders() LIMIT 1")
  [ -n "$writer_pid" ] && break
  sleep 0.1
done
check "the writer holds the horizon" "$([ -n "$writer_pid" ] && echo yes)" yes
check "a reader stays below the writer" "$(sql "SELECT act.horizon() < (SELECT min(lowest_id) FROM act.horizon_holders())")" t

kill -9 "$writer_pid" 2>/dev/null
wait 2>/dev/null
# The postmaster restarts; wait until it accepts connections again.
for _ in $(seq 300); do sql "SELECT 1" >/dev/null 2>&1 && break; sleep 0.1; done

check "no holder after the crash" "$(sql "SELECT count(*) FROM act.horizon_holders()")" 0
after=$(sql "SELECT id FROM act.commit('after', '[{\"name\": \"E\"}]')")
check "the horizon reaches the next commit" "$(sql "SELECT act.horizon() >= $after")" t
check "a reader sees it, and not the killed writer's event" \
  "$(sql "SELECT string_agg(stream, ',' ORDER BY id) FROM act.query(after => 0)")" after
check "the chain verifies" "$(sql "SELECT bool_and(valid) FROM act.verify()")" t
check "the server did restart" "$(grep -c 'terminated by signal 9' "$dir/pg/server.log")" 1

# Removal records across crashes (docs/verifiable-log.md): a truncate that
# committed stays accounted for; one killed before COMMIT deleted nothing
# and recorded nothing; the log verifies after each restart.
sql "SELECT count(*) FROM generate_series(1, 3) n,
       act.commit('keep-' || n, '[{\"name\": \"E\"}, {\"name\": \"E\", \"pii\": {\"a\": 1}}]')" >/dev/null
sql "SELECT count(*) FROM act.truncate('[{\"stream\": \"keep-1\"}]')" >/dev/null
sql "SELECT act.forget_pii('keep-2')" >/dev/null
psql -X -q -d postgres -c "BEGIN; SELECT count(*) FROM act.truncate('[{\"stream\": \"keep-3\"}]'); SELECT pg_sleep(60);" \
  >/dev/null 2>&1 &
truncator_pid=""
for _ in $(seq 100); do
  truncator_pid=$(sql "SELECT pid FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%keep-3%'")
  [ -n "$truncator_pid" ] && break
  sleep 0.1
done
check "a truncate waits inside its transaction" "$([ -n "$truncator_pid" ] && echo yes)" yes
kill -9 "$truncator_pid" 2>/dev/null
wait 2>/dev/null
for _ in $(seq 300); do sql "SELECT 1" >/dev/null 2>&1 && break; sleep 0.1; done
check "the truncate killed before COMMIT deleted nothing" "$(sql "SELECT count(*) FROM act.events WHERE stream = 'keep-3'")" 2
check "and recorded nothing: the committed truncate's record alone" \
  "$(sql "SELECT string_agg(data ->> 'removed', ',') FROM act.events WHERE stream = '__truncations__'")" 2
check "the log verifies after the crash" "$(sql "SELECT count(*) FROM act.seal(), act.verify_log()")" 0
scripts/cluster.sh crash "$dir/pg"
check "and after an immediate shutdown and a restart" "$(sql "SELECT count(*) FROM act.seal(), act.verify_log()")" 0
sql "SELECT count(*) FROM act.truncate('[{\"stream\": \"keep-3\"}]')" >/dev/null
check "a truncate after the restart records what it removed, and the log verifies" \
  "$(sql "SELECT count(*) FROM act.events WHERE stream = '__truncations__'")/$(sql "SELECT count(*) FROM act.seal(), act.verify_log()")" 2/0
echo "$passed $failed"
