#!/usr/bin/env bash
# actctl import's rate: for each peer (Act's Postgres store, Message DB,
# Emmett) a store of 100,000 events (5,000 quick) written through its own
# API (test/importers/fill.sh), imported into a fresh pg_act database. One
# record a peer: ops_per_s is events imported per second (the copy, from
# actctl's own progress line), check_events_per_s the final check's rate;
# p50/p95 are null (one run, no per-call latencies).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
events=$(bench_pick 100000 5000)
importers=$BENCH_ROOT/test/importers
(cd "$importers" && { [ -d node_modules ] || npm ci --no-audit --no-fund >&2; })
for peer in act-pg message-db emmett; do
  source_db=bench_import_${peer//-/_}_src
  dropdb --if-exists "$source_db" >/dev/null 2>&1
  echo "import: filling $peer with $events events..." >&2
  "$importers/fill.sh" "$peer" "$source_db" "$events" "$BENCH_WORK/import-$peer-fill.log" ||
    { cat "$BENCH_WORK/import-$peer-fill.log" >&2; exit 1; }
  bench_database "bench_import_${peer//-/_}"
  log=$BENCH_WORK/import-$peer.err
  "$BENCH_ROOT/build/actctl" --dsn "dbname=$PGDATABASE" import --from "$peer" --source-dsn "dbname=$source_db" \
    >"$BENCH_WORK/import-$peer.out" 2>"$log" || { cat "$BENCH_WORK/import-$peer.out" "$log" >&2; exit 1; }
  # "import: S streams, N events imported in T s" and "check: ... compared in T s"
  seconds() { sed -n "s/^$1: [0-9]* streams, [0-9]* events $2 in \([0-9.]*\) s$/\1/p" "$log"; }
  # actctl prints tenths of a second: a quick run's 0.0 counts as 0.05.
  jq -nc --arg peer "$peer" --argjson events "$events" --argjson copy "$(seconds import imported)" \
    --argjson check "$(seconds check compared)" '
    [$copy, $check] | map(if . == 0 then 0.05 else . end) as [$copy, $check] |
    {scenario: "import/\($peer)", events: $events, seconds: $copy, p50_ms: null, p95_ms: null,
     ops_per_s: ($events / $copy), check_events_per_s: ($events / $check)}'
  dropdb "$source_db"
done
