#!/usr/bin/env bash
# Reads on a hot standby next to the same reads on its primary (the standby
# is a streaming copy of the bench cluster, on the same machine, so both
# share its two cores): act.query of one stream's 100 events, and the next
# 100 events after a random position (a drain's read), at 1 and 2 clients;
# then the standby's lag as a reader sees it: a commit on the primary sent ->
# act.wait on the standby returned (build/wait_latency with its waiter on
# the standby).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
bench_database bench_standby
psql -X -q -c "SELECT count(*) FROM act.commit('read-100', (SELECT jsonb_agg(jsonb_build_object('name', 'Read',
  'data', jsonb_build_object('index', i, 'data', 'payload-' || i))) FROM generate_series(1, 100) i))" >/dev/null
psql -X -q -v first=1 -v streams=20 -f "$BENCH_ROOT/bench/pgbench/merkle_setup.sql" >/dev/null
psql -X -q -c 'ANALYZE' >/dev/null
range=$(psql -X -At -F ' ' -c 'SELECT min(id), max(id) - 100 FROM act.events')
read -r first last <<<"$range"

standby="$BENCH_WORK/standby"
"$BENCH_ROOT/scripts/cluster.sh" standby "$BENCH_WORK/pg" "$standby" >&2
trap '"$BENCH_ROOT/scripts/cluster.sh" stop "$standby" >/dev/null 2>&1 || true' EXIT
primary_env=$(env | grep -E '^PG(HOST|PORT)=')
standby_env=$(source "$standby/env" && env | grep -E '^PG(HOST|PORT)=')
lsn=$(psql -X -At -c 'SELECT pg_current_wal_lsn()')
for _ in $(seq 300); do
  # shellcheck disable=SC2086
  [ "$(env $standby_env psql -X -At -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ] && break
  sleep 0.1
done

for server in primary standby; do
  server_env=$primary_env
  [ "$server" = standby ] && server_env=$standby_env
  for clients in 1 2; do
    (
      # shellcheck disable=SC2086
      export $server_env
      pgbench_record "sql/$server/read_stream_100/${clients}_clients" read_stream "$clients" "$seconds" -D stream=read-100
      pgbench_record "sql/$server/read_after_100/${clients}_clients" read_after "$clients" "$seconds" \
        -D first="$first" -D last="$last"
    )
  done
done
conninfo=$(source "$standby/env" && echo "host=$PGHOST port=$PGPORT dbname=$PGDATABASE")
"$BENCH_ROOT/build/wait_latency" "$(bench_pick 300 50)" "$conninfo" | jq -c '.scenario = "sql/standby/wait_wakeup"
  | .latency_of = "commit sent on the primary -> act.wait returned on the standby"'
