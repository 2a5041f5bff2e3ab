#!/usr/bin/env bash
# The verifiable log (docs/verifiable-log.md): sealing a log of 1,000,000
# events from nothing (entries/s), a commit and its seal, the root at a random
# size, inclusion and consistency proofs at 1M entries (one client, p50), a
# full act.verify_log and act.verify of every stream (events/s), a truncate
# of a 1,000-event stream with its removal record and verify_log after
# them; then single
# commits at 8 clients with the sealer running and without, alternating
# rounds (fields "ratio", the median of rounds, and "pooled_ratio", all
# commits with over all without), and "sealer_cpu_share", the machine's CPU
# the sealer used while the commits ran. Concurrent mode: the seal worker is
# the sealer; fenced mode: a loop calling act.seal() every second.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
streams=$(bench_pick 1000 100)  # of 1,000 events each
seconds=$(bench_pick 10 2)
rounds=$(bench_pick 6 2)
bench_database bench_merkle
mode=$(psql -X -At -c "SELECT CASE WHEN current_setting('shared_preload_libraries') LIKE '%pg_act%' THEN 'concurrent' ELSE 'fenced' END")

# set_worker_interval MS: the seal worker's interval (0 stops it), applied at once.
set_worker_interval() {
  psql -X -q -c "ALTER SYSTEM SET act.seal_interval_ms = $1" -c 'SELECT pg_reload_conf()' >/dev/null
  sleep 1.5  # the launcher's current wait ends before it reads the setting
}
# timed_record SCENARIO UNITS_FIELD UNITS SQL [RUNS]: runs SQL RUNS times (1
# unless given), prints its record: p50 the median run, p95 the slowest.
# The full-log checks run 5 times: one run is at the mercy of whatever else
# the machine does in that second.
timed_record() {
  local scenario=$1 field=$2 units=$3 sql=$4 runs=${5:-1} started ended times=()
  for _ in $(seq "$runs"); do
    started=$(date +%s%N)
    psql -X -q -At -c "$sql" >/dev/null
    ended=$(date +%s%N)
    times+=("$(( (ended - started) / 1000 ))")
  done
  printf '%s\n' "${times[@]}" | jq -s -c --arg scenario "$scenario" --arg field "$field" --argjson units "$units" '
    (map(. / 1000) | sort) as $ms | ($ms[length / 2 | floor]) as $p50 |
    {scenario: $scenario, clients: 1, samples: length, p50_ms: $p50, p95_ms: $ms[-1], ops_per_s: (1000 / $p50),
     ($field): $units, ($field + "_per_s"): ($units * 1000 / $p50 | round)}'
}

[ "$mode" = concurrent ] && set_worker_interval 0
echo "merkle: committing $streams streams of 1,000 events..." >&2
for first in $(seq 1 100 "$streams"); do
  psql -X -q -v streams=$((first + 99 > streams ? streams : first + 99)) -v first="$first" \
    -f "$BENCH_ROOT/bench/pgbench/merkle_setup.sql" >/dev/null
done
psql -X -q -c 'ANALYZE act.events' >/dev/null
entries=$(psql -X -At -c 'SELECT count(*) FROM act.events')
label="$((entries / 1000))k"
[ "$(psql -X -At -c 'SELECT size FROM act.log_size()')" = 0 ] || { echo "merkle: the log was sealed before the timed seal" >&2; exit 1; }

timed_record "sql/merkle/seal_from_empty/${label}_entries" entries "$entries" 'SELECT size FROM act.seal()'
[ "$(psql -X -At -c 'SELECT size FROM act.log_size()')" = "$entries" ] || { echo "merkle: the seal did not cover every event" >&2; exit 1; }
size=$entries
range=$(psql -X -At -F ' ' -c 'SELECT min(id), max(id) FROM act.events')
read -r first_id last_id <<<"$range"
pgbench_record "sql/merkle/merkle_root/${label}_entries" merkle_root 1 "$seconds" -D size="$size"
pgbench_record "sql/merkle/prove_inclusion/${label}_entries" merkle_inclusion 1 "$seconds" -D first="$first_id" -D last="$last_id"
pgbench_record "sql/merkle/prove_consistency/${label}_entries" merkle_consistency 1 "$seconds" -D size="$size"
timed_record "sql/merkle/verify_log/${label}_entries" entries "$entries" 'SELECT count(*) FROM act.verify_log()' 5
timed_record "sql/verify/all_streams/${label}_events" events "$entries" 'SELECT count(*) FROM act.verify() WHERE valid' 5
pgbench_record "sql/merkle/commit_and_seal" merkle_seal_small 1 "$seconds"
# A truncate's cost with its removal record: closing a stream of 1,000
# events (a different stream each run), then act.verify_log over the log
# with those entries accounted for by the records.
timed_record "sql/merkle/truncate_stream/1k_events" events 1000 \
  "SELECT count(*) FROM act.truncate(jsonb_build_array(jsonb_build_object('stream',
     (SELECT stream FROM act.events WHERE version = 999 ORDER BY id LIMIT 1))))" 5
timed_record "sql/merkle/verify_log_after_truncates/${label}_entries" entries "$entries" 'SELECT count(*) FROM act.verify_log()' 3

# Commits with the sealer running against commits without it.
psql -X -q -f "$BENCH_ROOT/bench/pgbench/setup.sql" >/dev/null 2>&1
rounds_file="$BENCH_WORK/merkle_rounds.jsonl"
: >"$rounds_file"
sealer_loop() {
  while :; do psql -X -q -At -c 'SELECT size FROM act.seal()' >/dev/null 2>&1; sleep 1; done
}
sealer_on() {
  if [ "$mode" = concurrent ]; then set_worker_interval 1000; else sealer_loop & loop=$!; fi
}
sealer_off() {
  if [ "$mode" = concurrent ]; then set_worker_interval 0; else kill "$loop"; wait "$loop" 2>/dev/null || true; fi
}
# What the server's short-lived processes cost, counted rather than timed:
# once reaped, a process's CPU time is added to the postmaster's children's
# (/proc/PID/stat cutime + cstime). The commit clients' backends live through
# the run, so in a window inside it the reaped ones are seal workers (or the
# fenced loop's backends) and autovacuum; the two sides differ by the sealer.
postmaster_pid=$(head -1 "$(psql -X -At -c 'SHOW data_directory')/postmaster.pid")
cpu_ticks() {  # the machine's CPU ticks, then the postmaster's reaped children's
  awk '/^cpu /{print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat
  awk '{print $16 + $17}' "/proc/$postmaster_pid/stat"
}
# reaped_share SECONDS: the reaped children's share of the machine's CPU over a
# window from 0.5 s into a run of SECONDS to 0.5 s before its end.
reaped_share() {
  local before after
  sleep 0.5; before=$(cpu_ticks)
  sleep "$(($1 - 1))"; after=$(cpu_ticks)
  paste <(echo "$before") <(echo "$after") | awk '{d[NR] = $2 - $1} END {printf "%.4f\n", d[2] / d[1]}'
}
# measure_side SIDE ROUND: one 8-client commit run, tagged, with the reaped share.
measure_side() {
  local share_file="$BENCH_WORK/reaped_share" record sampler
  reaped_share "$seconds" >"$share_file" &
  sampler=$!
  record=$(pgbench_record "sql/commit_single/8_clients" commit_single 8 "$seconds")
  wait "$sampler"
  jq -c --argjson round "$2" --arg side "$1" --argjson share "$(cat "$share_file")" \
    '. + {round: $round, side: $side, reaped_cpu_share: $share}' <<<"$record" | tee -a "$rounds_file"
}
# Rounds alternate which side runs first (without/with, then with/without), so
# the log growing over the suite does not count against one side.
for round in $(seq "$rounds"); do
  if [ $((round % 2)) = 1 ]; then
    measure_side without "$round"; sealer_on; measure_side with_sealer "$round"; sealer_off
  else
    sealer_on; measure_side with_sealer "$round"; sealer_off; measure_side without "$round"
  fi
done
jq -s -c '
  def median: sort | .[(length - 1) / 2 | floor];
  (map(select(.side == "without"))) as $without | (map(select(.side == "with_sealer"))) as $with |
  [range(0; $with | length) | $with[.].ops_per_s / $without[.].ops_per_s] as $ratios |
  ($with | sort_by(.ops_per_s) | .[(length - 1) / 2 | floor]) as $typical |
  {scenario: "sql/commit_single_with_sealer_over_without/8_clients", clients: 8, rounds: ($with | length),
   p50_ms: $typical.p50_ms, p95_ms: $typical.p95_ms, ops_per_s: $typical.ops_per_s,
   ratios: ($ratios | map(. * 1000 | round / 1000)), ratio: ($ratios | median * 1000 | round / 1000),
   pooled_ratio: (($with | map(.ops_per_s) | add) / ($without | map(.ops_per_s) | add) * 1000 | round / 1000),
   sealer_cpu_share: ((($with | map(.reaped_cpu_share) | add) - ($without | map(.reaped_cpu_share) | add))
                      / ($with | length) * 10000 | round / 10000)}' "$rounds_file"
[ "$mode" = concurrent ] && psql -X -q -c 'ALTER SYSTEM RESET act.seal_interval_ms' -c 'SELECT pg_reload_conf()' >/dev/null
exit 0
