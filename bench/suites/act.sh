#!/usr/bin/env bash
# The Act framework's own scenarios (its published benches: a single commit,
# a warm and a cold load, 20 commits contending on one stream, the ticket
# workflow, the calculator session with its projection, the shared
# inventory) through Act on three stores in this run: Act 1.31 on pg_act
# (adapters/act's PgActStore), Act 1.31 on its in-memory store, and Act
# 0.5.6 on its last published Postgres store (@rotorsoft/act-pg 0.4.6) where
# the scenario exists there. Records per store ("act/SCENARIO/STORE"), then
# pg_act's over each other store ("act/SCENARIO/pg_act_over_memory",
# ".../pg_act_over_act_pg"): pg_act's figures and "ratio", pg_act's ops/s
# over the other's. bench/act/harness.mjs says how the figures are taken.
# Then writers racing on one new stream (bench/act/racing_writers.mjs) on
# pg_act (a conflict's connection back to the pool), pg_act through
# pool.query (which closes it) and act-pg, with the same ratios.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
adapter=$BENCH_ROOT/adapters/act
drivers=$BENCH_ROOT/bench/act

# npm packages as each lock file says, installed again when the lock changed.
npm_ci_once() {
  local lock_sum stamp=node_modules/.installed-from-lock
  lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
  [ -d node_modules ] && [ "$(cat "$stamp" 2>/dev/null)" = "$lock_sum" ] && return 0
  echo "act: installing the npm packages of $(basename "$PWD") (npm ci)" >&2
  npm ci --no-audit --no-fund >&2
  echo "$lock_sum" >"$stamp"
}
(cd "$adapter" && npm_ci_once && npm run --silent build >&2)
(cd "$drivers" && npm_ci_once)

# As the reference measured: test environment, fatal logs only. Act reads
# package.json from the working directory.
run_driver() { (cd "$drivers" && NODE_ENV=test LOG_LEVEL=fatal node "$@"); }
records=$BENCH_WORK/act-records
: >"$records"
bench_database bench_act
echo "act: Act 1.31 on pg_act..." >&2
run_driver act-1.31.mjs pg_act | tee -a "$records"
echo "act: Act 1.31 in memory..." >&2
run_driver act-1.31.mjs memory | tee -a "$records"
echo "act: Act 0.5.6 on act-pg 0.4.6..." >&2
dropdb --if-exists bench_act_act_pg >/dev/null 2>&1
createdb bench_act_act_pg
run_driver act-pg.mjs bench_act_act_pg | tee -a "$records"
# 20 writers racing on one new stream over a pool of 10 connections, retrying
# with the version each conflict names (racing_writers.mjs), the stores in turn.
echo "act: racing writers on pg_act and act-pg..." >&2
for store in pg_act pg_act_pool_query act_pg; do
  run_driver racing_writers.mjs "$store" bench_act_act_pg | tee -a "$records"
done
dropdb bench_act_act_pg

jq -s -c '
  (map(select(.error == null)) | group_by(.scenario | split("/")[1]))[] as $runs
  | ($runs | map({key: .store, value: .}) | from_entries) as $by
  | ("pg_act", "pg_act_pool_query") as $mine
  | select($by[$mine])
  | ("memory", "act_pg") as $other
  | select($by[$other])
  | {scenario: "act/\($by[$mine].scenario | split("/")[1])/\($mine)_over_\($other)",
     p50_ms: $by[$mine].p50_ms, p95_ms: $by[$mine].p95_ms, ops_per_s: $by[$mine].ops_per_s,
     ratio: ($by[$mine].ops_per_s / $by[$other].ops_per_s * 1000 | round / 1000)}' "$records"
