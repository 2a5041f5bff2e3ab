#!/usr/bin/env bash
# The consistency-boundary race (docs/dcb.md, "Guarantees"): RACERS psql
# processes (16) each try to claim every one of ROUNDS rounds (1,000) with
# act.append and a uniqueness guard on the round's tag. Exactly one racer
# must win each round. Runs in a fresh database on the cluster PG* points
# at; details go to stderr, the last line is "PASSED FAILED" (rounds).
#   test/run-dcb-race.sh [ROUNDS [RACERS]]
set -uo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-1000}
racers=${2:-16}
db=dcb_race
dropdb --if-exists "$db" 2>/dev/null
if ! createdb "$db" ||
  ! PGOPTIONS='-c client_min_messages=warning' psql -X -q -v ON_ERROR_STOP=1 -d "$db" \
    -c 'CREATE EXTENSION pg_act' -f test/dcb/race.sql >/dev/null; then
  echo "0 1"
  exit 0
fi
pids=()
for racer in $(seq 1 "$racers"); do
  timeout 600 psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CALL race($racer, $rounds)" >/dev/null &
  pids+=($!)
done
broken=0
for pid in "${pids[@]}"; do wait "$pid" || broken=$((broken + 1)); done
[ "$broken" -gt 0 ] && echo "dcb race: $broken racers did not finish" >&2
# Rounds with exactly one winner, and the others (none or several).
read -r good bad < <(psql -X -At -F ' ' -d "$db" -c "
  SELECT count(*) FILTER (WHERE winners = 1), $rounds - count(*) FILTER (WHERE winners = 1)
    FROM (SELECT r, (SELECT count(*) FROM act.event_tags t WHERE t.tag = 'round:' || r) AS winners
            FROM generate_series(1, $rounds) r) w")
psql -X -At -d "$db" -c "
  SELECT 'round ' || r || ': ' || count(*) || ' winners' FROM act.event_tags t, generate_series(1, $rounds) r
   WHERE t.tag = 'round:' || r GROUP BY r HAVING count(*) > 1 ORDER BY r LIMIT 10" >&2
dropdb "$db"
[ "$broken" -gt 0 ] && bad=$((bad + broken))
echo "${good:-0} ${bad:-1}"
