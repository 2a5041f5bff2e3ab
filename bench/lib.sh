# Sourced by bench/run.sh, bench/check.sh and bench/suites/*.sh. A suite
# prints records, one JSON object per line with at least scenario, p50_ms,
# p95_ms and ops_per_s, to stdout; progress and errors go to stderr. Suites
# run against the cluster the PG* variables point at, with BENCH_ROOT (the
# checkout), BENCH_WORK (a scratch directory) and BENCH_QUICK (short runs).

# bench_pick FULL QUICK: the value for this run.
bench_pick() {
  if [ -n "${BENCH_QUICK:-}" ] && [ "$BENCH_QUICK" != 0 ]; then echo "$2"; else echo "$1"; fi
}

# bench_database NAME: a fresh database with pg_act, made the default (PGDATABASE).
bench_database() {
  dropdb --if-exists "$1" >/dev/null 2>&1
  createdb "$1"
  PGOPTIONS='-c client_min_messages=warning' psql -X -q -d "$1" -c 'CREATE EXTENSION pg_act' >/dev/null
  export PGDATABASE=$1
}

# bench_claim_setup N: N subscriptions of which 10 have work; prints how many a claim finds.
bench_claim_setup() {
  psql -X -q -v subscriptions="$1" -f "$BENCH_ROOT/bench/pgbench/claim_setup.sql" >/dev/null
  # 0 ms leases expire at once: every call finds the same streams.
  psql -X -At -c "SELECT count(*) FROM act.claim(8, 2, 'check', 0)"
}

# bench_verify_setup STREAM EVENTS: one stream of EVENTS events, its chain checked once.
bench_verify_setup() {
  psql -X -q -v events="$2" -v stream="$1" -f "$BENCH_ROOT/bench/pgbench/verify_setup.sql" >/dev/null
  local valid
  valid=$(psql -X -At -c "SELECT events FROM act.verify('$1') WHERE valid")
  [ "$valid" = "$2" ] || { echo "verify: $1 is not a valid chain of $2 events" >&2; return 1; }
}

# pgbench_record SCENARIO SCRIPT CLIENTS SECONDS [pgbench options...]: runs
# bench/pgbench/SCRIPT.sql and prints its record: ops_per_s is pgbench's tps,
# p50/p95 come from the per-transaction log (sorted[floor(n * p)]).
pgbench_record() {
  local scenario=$1 script=$2 clients=$3 seconds=$4
  shift 4
  local log
  log=$(mktemp -d "$BENCH_WORK/pgbench.XXXXXX")
  if ! (cd "$log" && pgbench -n -M prepared -c "$clients" -j "$clients" -T "$seconds" -l "$@" \
          -f "$BENCH_ROOT/bench/pgbench/$script.sql" >out.txt 2>&1); then
    cat "$log/out.txt" >&2
    return 1
  fi
  local tps
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$log/out.txt")
  cat "$log"/pgbench_log.* | awk '{print $3}' | sort -n |
    awk -v scenario="$scenario" -v clients="$clients" -v tps="$tps" '
      { latency[NR] = $1 }
      END {
        p50 = int(NR * 0.50) + 1; p95 = int(NR * 0.95) + 1; if (p95 > NR) p95 = NR
        printf "{\"scenario\": \"%s\", \"clients\": %d, \"samples\": %d, \"p50_ms\": %.3f, \"p95_ms\": %.3f, \"ops_per_s\": %s}\n",
               scenario, clients, NR, latency[p50] / 1000, latency[p95] / 1000, tps
      }'
  rm -rf "$log"
}

# bench_settings: the server's settings and pg_act's mode as one JSON object.
bench_settings() {
  psql -X -At <<'SQL'
SELECT FROM act.mode();  -- loads pg_act, whose settings exist from then on
SELECT json_build_object(
  'mode', act.mode(),
  'pg_act', (SELECT extversion FROM pg_extension WHERE extname = 'pg_act'),
  'server_version', current_setting('server_version'),
  'settings', (SELECT json_object_agg(name, current_setting(name, true))
                 FROM unnest(ARRAY['fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method', 'wal_level',
                                   'shared_buffers', 'max_wal_size', 'max_connections', 'shared_preload_libraries',
                                   'work_mem', 'jit', 'act.notify']) name));
SQL
}

# bench_host: the machine, and how busy it was when asked (the load average).
bench_host() {
  local cpu memory
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
  memory=$(awk '/^MemTotal/ {printf "%d", $2 / 1024}' /proc/meminfo)
  printf '{"cores": %d, "cpu": "%s", "memory_mb": %d, "kernel": "%s", "load_average": "%s"}\n' \
    "$(nproc)" "$cpu" "$memory" "$(uname -r)" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

# bench_work_store STREAMS SUBSCRIPTIONS: STREAMS streams of 10 events "E"
# and SUBSCRIPTIONS subscriptions, one stream each, of which 1% have work
# (the others wait for an event name nobody writes: caught up, as most are
# in a running store), 100 leased and 10 of them blocked; the log sealed.
bench_work_store() {
  local streams=$1 subscriptions=$2 batch
  # 1,000 streams a transaction: each commit holds its stream's lock to the end.
  for batch in $(seq 0 $((streams / 1000 - 1))); do
    echo "SELECT count(*) FROM generate_series($((batch * 1000 + 1)), $((batch * 1000 + 1000))) s,
            act.commit('s-' || lpad(s::text, 6, '0'), (SELECT jsonb_agg(jsonb_build_object('name', 'E', 'data',
                       jsonb_build_object('i', i))) FROM generate_series(1, 10) i), jsonb_build_object('correlation', 'c-' || s));"
  done | psql -X -q -v ON_ERROR_STOP=1 >/dev/null
  # Subscriptions 10,000 a call, each reading one stream; every 100th with work.
  for batch in $(seq 0 $((subscriptions / 10000 - 1))); do
    echo "SELECT count(*) FROM act.subscribe((SELECT jsonb_agg(jsonb_build_object('stream', 'sub-' || lpad(s::text, 6, '0'),
            'source', 's-' || lpad(s::text, 6, '0'), 'names', jsonb_build_array(CASE WHEN s % 100 = 0 THEN 'E' ELSE 'Later' END)))
            FROM generate_series($((batch * 10000 + 1)), $((batch * 10000 + 10000))) s));"
  done | psql -X -q -v ON_ERROR_STOP=1 >/dev/null
  psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
SELECT count(*) FROM act.claim(100, 0, 'bench', 3600000);  -- of the 1% with work
SELECT count(*) FROM act.block((SELECT jsonb_agg(jsonb_build_object('stream', stream, 'by', 'bench', 'error', 'bench'))
  FROM (SELECT stream FROM act.subscriptions WHERE leased_by = 'bench' ORDER BY stream LIMIT 10) s));
SELECT count(*) FROM act.seal();
VACUUM ANALYZE act.events;
SQL
}
