#!/usr/bin/env bash
# act.query_stats over a log of 1,000,000 events (100,000 quick) in streams of
# 10 events: the first stream (limit 1), and a page of 10 streams after a
# random one (after + limit, with counts). Once in a database of the C
# collation, whose (stream, version) index walks streams in the order the
# result has, and once in the cluster's own collation (a non-C one walks
# every stream's name, not its events).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 3)
streams=$(bench_pick 100000 10000)
for collation in c default; do
  db=bench_stats_$collation
  if [ "$collation" = c ]; then
    dropdb --if-exists "$db" >/dev/null 2>&1
    createdb -T template0 -l C "$db"
    PGOPTIONS='-c client_min_messages=warning' psql -X -q -d "$db" -c 'CREATE EXTENSION pg_act' >/dev/null
    export PGDATABASE=$db
  else
    bench_database "$db"
  fi
  # 1,000 streams a transaction: each commit holds its stream's lock to the end.
  for batch in $(seq 0 $((streams / 1000 - 1))); do
    echo "SELECT count(*) FROM generate_series($((batch * 1000 + 1)), $((batch * 1000 + 1000))) s,
            act.commit('s-' || lpad(s::text, 6, '0'), (SELECT jsonb_agg(jsonb_build_object('name', 'E', 'data',
                       jsonb_build_object('i', i))) FROM generate_series(1, 10) i));"
  done | psql -X -q -v ON_ERROR_STOP=1 >/dev/null
  psql -X -q -c 'VACUUM ANALYZE act.events' >/dev/null
  pgbench_record "sql/stats/${collation}_collation/limit_1" stats_limit 1 "$seconds" -D size=1
  pgbench_record "sql/stats/${collation}_collation/after_limit_10" stats_after 1 "$seconds" -D size=10 -D streams="$streams"
  dropdb "$db"
done
