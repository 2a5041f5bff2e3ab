#!/usr/bin/env bash
# Where a pgbench script's time goes on the server, against the cluster the
# PG* variables point at (PGDATABASE prepared for the script): perf samples
# one backend's CPU with call graphs (DWARF: Debian's postgres has no frame
# pointers), and pg_stat_activity is sampled every 10 ms for what the
# backends wait on when they are not on a CPU. Needs perf and root (or
# perf_event_paranoid <= 1).
#   bench/profile.sh SCRIPT CLIENTS SECONDS [pgbench options...]
set -euo pipefail
cd "$(dirname "$0")/.."
script=$1 clients=$2 seconds=$3
shift 3
work=$(mktemp -d /tmp/pg_act_profile.XXXXXX)
trap 'rm -rf "$work"' EXIT
PGAPPNAME=act_profile pgbench -n -M prepared -c "$clients" -j "$clients" -T "$seconds" "$@" \
  -f "bench/pgbench/$script.sql" >"$work/pgbench.out" 2>&1 &
bench=$!
pid=""
for _ in $(seq 100); do
  pid=$(psql -X -At -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'act_profile' ORDER BY pid LIMIT 1")
  [ -n "$pid" ] && break
  sleep 0.05
done
[ -n "$pid" ] || { cat "$work/pgbench.out" >&2; exit 1; }
sleep 0.5  # past connection set-up and the first plans
perf record -q --call-graph dwarf -F 499 -p "$pid" -o "$work/perf.data" -- sleep $(( seconds > 3 ? seconds - 2 : 1 )) 2>/dev/null &
recording=$!
while kill -0 "$bench" 2>/dev/null; do
  psql -X -At -c "SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') FROM pg_stat_activity
                  WHERE application_name = 'act_profile' AND state = 'active'" 2>/dev/null || true
  sleep 0.01
done >"$work/waits"
wait "$recording" || true
wait "$bench" || { cat "$work/pgbench.out" >&2; exit 1; }
grep -E '^(tps|latency average)' "$work/pgbench.out"
echo "== what the active backends were doing (share of samples)"
sort "$work/waits" | uniq -c | sort -rn | awk '{total += $1; line[NR] = $0; n[NR] = $1; what[NR] = $2}
  END {for (i = 1; i <= NR && i <= 8; i++) printf "%6.1f%%  %s\n", 100 * n[i] / total, what[i]}'
echo "== backend $pid on the CPU: self time"
perf report -i "$work/perf.data" --no-children --stdio --percent-limit 1.5 -g none 2>/dev/null | grep -E '^ +[0-9]' | head -25
echo "== with callees (children)"
perf report -i "$work/perf.data" --children --stdio --percent-limit 3 -g none 2>/dev/null | grep -E '^ +[0-9]' |
  grep -vE '\] 0x|_start|main\b|PostgresMain|PostmasterMain|__libc' | head -30
