#!/usr/bin/env bash
# The inspector's pages (actctl serve, docs/inspector.md) on a store of
# 1,000,000 events in 100,000 streams of 10 (100,000 and 10,000 quick) and
# 100,000 subscriptions (10,000 quick), one stream each, of which 1% have
# work (the others wait for an event name nobody writes: caught up, as most
# are in a running store), 100 leased and 10 blocked:
# each page's JSON request timed from the client (curl), one at a time.
# The page's own rendering in the browser is not counted. Then the overview
# again with 10,000 more subscriptions, every one with work (busy_*).
# BENCH_INSPECTOR_REUSE=1 keeps a store an earlier run seeded.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
requests=$(bench_pick 100 20)
streams=$(bench_pick 100000 10000)
subscriptions=$(bench_pick 100000 10000)
actctl=$BENCH_ROOT/build/actctl
[ -x "$actctl" ] || { echo "inspector: no $actctl (cmake --build build --target actctl)" >&2; exit 1; }
if [ "${BENCH_INSPECTOR_REUSE:-0}" = 1 ] &&
   [ "$(psql -X -At -d bench_inspector -c 'SELECT count(*) FROM act.subscription_rows' 2>/dev/null)" = "$subscriptions" ]; then
  export PGDATABASE=bench_inspector
else
  bench_database bench_inspector
  bench_work_store "$streams" "$subscriptions"
fi

log=$(mktemp -d "$BENCH_WORK/inspector.XXXXXX")
timeout -k 5 1800 "$actctl" serve --dsn "dbname=$PGDATABASE" --listen 127.0.0.1:0 >"$log/out" 2>"$log/err" &
server=$!
trap 'kill -TERM "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$log"' EXIT
address=""
for _ in $(seq 1 100); do
  address=$(sed -n 's/^listening on //p' "$log/out" 2>/dev/null)
  [ -n "$address" ] && break
  sleep 0.1
done
[ -n "$address" ] || { echo "inspector: actctl serve did not start: $(cat "$log/err")" >&2; exit 1; }

middle=s-$(printf '%06d' $((streams / 2)))
# page NAME PATH: the page's request $requests times; its record.
page() {
  local name=$1 path=$2 i
  curl -sf -o /dev/null "$address$path" || { echo "inspector: $path failed" >&2; exit 1; }  # warm
  for i in $(seq 1 "$requests"); do
    curl -s -o /dev/null -w '%{time_total}\n' "$address$path"
  done | sort -n | awk -v scenario="inspector/$name" -v path="$path" '
    { latency[NR] = $1 * 1000; sum += $1 }
    END {
      p50 = int(NR * 0.50) + 1; p95 = int(NR * 0.95) + 1; if (p95 > NR) p95 = NR
      printf "{\"scenario\": \"%s\", \"path\": \"%s\", \"clients\": 1, \"samples\": %d, \"p50_ms\": %.3f, \"p95_ms\": %.3f, \"ops_per_s\": %.1f}\n",
             scenario, path, NR, latency[p50], latency[p95], NR / sum
    }'
}
page overview /api/status
page log /api/log
page log_by_pattern "/api/log?stream=%5Es-0000&regex=1"
page log_by_name /api/log?name=E
page log_by_correlation "/api/log?correlation=c-$((streams / 2))"
page log_older "/api/log?before=$((streams * 5))"
page stream "/api/streams/$middle"
page correlation "/api/correlation/c-$((streams / 2))"
page work /api/work
page work_blocked /api/work?blocked=1
page work_page "/api/work?after=sub-$(printf '%06d' $((subscriptions / 2)))"
page verify /api/verify
page verify_log_1000 "/api/verify/log?from=0&to=1000"
page metrics /metrics

# 10,000 subscriptions more, each with its stream's ten events to handle.
busy=10000
psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<SQL
SELECT count(*) FROM act.subscribe((SELECT jsonb_agg(jsonb_build_object('stream', 'busy-' || lpad(s::text, 6, '0'),
  'source', 's-' || lpad(s::text, 6, '0'), 'names', jsonb_build_array('E'))) FROM generate_series(1, $busy) s));
SQL
page busy_overview /api/status
page busy_work /api/work
page busy_metrics /metrics
# The store as seeded, for the next run that reuses it.
psql -X -q -v ON_ERROR_STOP=1 -c "DELETE FROM act.subscription_rows WHERE stream LIKE 'busy-%'" >/dev/null
