#!/usr/bin/env bash
# The sweeps of a bench run as pictures, each pg_act line next to its floor
# from the same run (bench/suites/sweep_*.sh):
#   bench-commits.png  commits/s against clients (act.commit, plain INSERT)
#   bench-drains.png   events/s against workers (act.claim_events, plain SQL)
#   bench-claims.png   claim p50 against subscriptions (act.claim, plain SQL)
# one panel per mode the run measured. Fails, writing nothing, when a series
# or a floor a pg_act point needs is missing.
#   bench/plot.sh [RESULTS.json] [DIRECTORY]   default build/bench/results.json, docs
set -euo pipefail
cd "$(dirname "$0")/.."
results=${1:-build/bench/results.json}
out=${2:-docs}
[ -r "$results" ] || { echo "bench/plot.sh: cannot read $results" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "bench/plot.sh: gnuplot is missing (scripts/deps.sh installs it)" >&2; exit 1; }

# The series: "PLOT SERIES FLOOR": every point of SERIES needs FLOOR's at the same x and mode.
pairs=("commits sql/commit_sweep/new_stream sql/insert_sweep/new_stream"
       "commits sql/commit_sweep/stream_per_client sql/insert_sweep/stream_per_client"
       "drains sql/drain_sweep/claim_events sql/drain_sweep/plain"
       "claims sql/claim_sweep/claim sql/claim_sweep/plain")

# points SERIES: "mode x y" lines of a series, by mode and x; y is ops/s, a claim's p50 in ms.
points() {
  jq -r --arg series "$1" '.scenarios[] | select(.scenario | startswith($series + "/")) |
    [.mode, (.subscriptions // .clients), (if .subscriptions then .p50_ms else .ops_per_s end)] | @tsv' "$results" |
    sort -k1,1 -k2,2n
}

missing=()
for pair in "${pairs[@]}"; do
  read -r _ series floor <<<"$pair"
  [ -n "$(points "$series")" ] || missing+=("$series")
  [ -n "$(points "$floor")" ] || missing+=("$floor")
  while read -r mode x _; do
    [ -n "$mode" ] || continue
    points "$floor" | awk -v mode="$mode" -v x="$x" '$1 == mode && $2 == x { found = 1 } END { exit !found }' ||
      missing+=("$floor at $x ($mode), the floor of $series")
  done < <(points "$series")
done
if [ ${#missing[@]} -gt 0 ]; then
  printf 'bench/plot.sh: %s has no %s\n' "$results" "${missing[@]}" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data() { echo "$work/$(echo "$1" | tr / _).$2"; }  # data SERIES MODE: its file of "x y" lines

for pair in "${pairs[@]}"; do
  read -r _ series floor <<<"$pair"
  for name in "$series" "$floor"; do
    points "$name" | while read -r mode x y; do echo "$x $y" >>"$(data "$name" "$mode")"; done
  done
done

# draw PLOT TITLE XLABEL YLABEL XLOGBASE SERIES:LABEL FLOOR:LABEL...: one PNG, a
# panel a mode (concurrent first); a series solid, its floor dashed in its colour.
draw() {
  local plot=$1 title=$2 xlabel=$3 ylabel=$4 base=$5
  shift 5
  local modes=() mode line
  for mode in concurrent fenced; do
    [ -e "$(data "${1%%:*}" "$mode")" ] && modes+=("$mode")
  done
  {
    echo "set terminal pngcairo noenhanced size $((560 * ${#modes[@]})),420 font 'sans,10'"
    echo "set output '$out/bench-$plot.png'"
    echo "set multiplot layout 1,${#modes[@]} title '$title'"
    echo "set logscale x $base; set xlabel '$xlabel'; set ylabel '$ylabel'; set yrange [0:*]"
    echo "set format x '%.0s%c'; set key top left; set grid; set autoscale xfix; set offsets graph 0.05, graph 0.05, graph 0.1, 0"
    for mode in "${modes[@]}"; do
      echo "set title '$mode mode'"
      line="plot"
      local index=0 spec
      for spec in "$@"; do
        line+=" '$(data "${spec%%:*}" "$mode")' using 1:2 with linespoints lw 2 pt 7"
        line+=" dt $((index % 2 + 1)) lc $((index / 2 + 1)) title '${spec#*:}',"
        index=$((index + 1))
      done
      echo "${line%,}"
    done
    echo "unset multiplot"
  } >"$work/$plot.gp"
  gnuplot "$work/$plot.gp"
}

mkdir -p "$out"
draw commits "Commits of one event against clients, each beside a plain INSERT of the same row" \
  clients "commits/s" 2 \
  "sql/commit_sweep/new_stream:act.commit, a new stream each" "sql/insert_sweep/new_stream:INSERT, a new stream each" \
  "sql/commit_sweep/stream_per_client:act.commit, a stream per client" \
  "sql/insert_sweep/stream_per_client:INSERT, a stream per client"
draw drains "Drain of the same streams against workers" workers "events/s" 2 \
  "sql/drain_sweep/claim_events:act.claim_events" "sql/drain_sweep/plain:plain SQL (SKIP LOCKED)"
draw claims "A claim of 10 streams with work against subscriptions, 1 client" subscriptions "p50 (ms)" 10 \
  "sql/claim_sweep/claim:act.claim" "sql/claim_sweep/plain:plain SQL (SKIP LOCKED)"
for plot in commits drains claims; do
  [ -s "$out/bench-$plot.png" ] || { echo "bench/plot.sh: $out/bench-$plot.png was not written" >&2; exit 1; }
done
echo "$out/bench-commits.png $out/bench-drains.png $out/bench-claims.png"
