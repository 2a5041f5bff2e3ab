#!/usr/bin/env bash
# Partitioned deployments (docs/scale-out.md) on clusters of their own, each
# node pinned to one core with taskset so a node's budget is its core:
# - durable single-event commits at 8 clients on one node (not partitioned)
#   against 2 partition nodes side by side (4 clients each, direct), and
#   through a PL/Proxy router in front of them (8 clients);
# - one client's latency direct to a partition and through the router
#   (a commit, and act.version), in interleaved rounds;
# - the 8-client rate with 1, 2 and 4 partitions (2 and 4 on the 2 nodes).
# Each client commits to random streams of the partition it is connected to
# (names from a table, computed by act.partition_of), so no call is refused.
# One node is also measured with its clients pinned to the other core (the
# node alone on its core). Where the clients are not pinned they share the
# cores with the nodes, so every record also carries the CPU time spent per
# commit by the servers (backends that exited included) and by the clients:
# what a node on a machine of its own needs (PERFORMANCE.md).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 3)
dir=$(mktemp -d /tmp/pg_act_bench_parts.XXXXXX)
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
nodes=(single a b router)
stop_all() {
  for node in "${nodes[@]}"; do [ -f "$dir/$node/env" ] && scripts_cluster stop "$dir/$node" >/dev/null 2>&1; done
  rm -rf "$dir"
}
scripts_cluster() { "$BENCH_ROOT/scripts/cluster.sh" "$@"; }
trap stop_all EXIT

preload="shared_preload_libraries = 'pg_act'"
start_node() {  # start_node NAME CPU
  mkdir -p "$dir/$1"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir/$1"
  taskset -c "$2" "$BENCH_ROOT/scripts/cluster.sh" start "$dir/$1" "$preload" "max_connections = 60" >/dev/null
}
on() {  # on NODE DATABASE psql-arguments...
  local node=$1 db=$2
  shift 2
  (source "$dir/$node/env" && PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "$@")
}
# partition_db NODE DATABASE PARTITION PARTITIONS: a partition database with
# 100,000 stream names of its partition in bench_streams(n, stream).
partition_db() {
  (source "$dir/$1/env" && createdb "$2")
  on "$1" "$2" -c 'CREATE EXTENSION pg_act' -c "SELECT act.set_partition($3, $4)" \
    -c "CREATE TABLE bench_streams AS SELECT row_number() OVER () AS n, s AS stream
          FROM (SELECT 's-' || i AS s FROM generate_series(1, 400000 * $4) i) names
         WHERE act.partition_of(s, $4) = $3 LIMIT 100000" \
    -c 'CREATE UNIQUE INDEX ON bench_streams (n)' >/dev/null
}
script="$dir/commit.sql"
cat >"$script" <<'EOF'
\set n random(1, 100000)
SELECT 1 FROM act.commit((SELECT stream FROM bench_streams WHERE n = :n), '[{"name": "Ticked", "data": {}}]');
EOF
routed="$dir/routed.sql"
cat >"$routed" <<'EOF'
\set n random(1, 400000)
SELECT 1 FROM act.commit('s-' || :n, '[{"name": "Ticked", "data": {}}]');
EOF
# cpu_ms NODE: the CPU time (ms) the node's server has used so far: the
# postmaster and its processes, and the backends it has reaped.
cpu_ms() {
  local postmaster ticks=0 pid
  postmaster=$(head -1 "$dir/$1/data/postmaster.pid")
  for pid in $postmaster $(pgrep -P "$postmaster"); do
    [ -r "/proc/$pid/stat" ] && ticks=$((ticks + $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  ticks=$((ticks + $(awk '{ print $16 + $17 }' "/proc/$postmaster/stat")))
  echo $((ticks * 1000 / $(getconf CLK_TCK)))
}
# run NODE DATABASE SCRIPT CLIENTS [CPU]: pgbench (pinned to CPU when given),
# as "tps p50_ms client_cpu_ms".
run() {
  local log pin=()
  log=$(mktemp -d "$dir/pgbench.XXXXXX")
  [ "$(id -u)" -eq 0 ] && chown postgres "$log"
  [ -n "${5:-}" ] && pin=(taskset -c "$5")
  # `times` in the subshell: the CPU time of its children, pgbench's.
  (source "$dir/$1/env" && cd "$log" &&
    "${pin[@]}" pgbench -n -c "$4" -j "$4" -T "$seconds" -l -d "$2" -f "$3" >out.txt 2>&1 && times >times.txt) ||
    { cat "$log/out.txt" >&2; return 1; }
  local tps p50 client_ms
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$log/out.txt")
  p50=$(cat "$log"/pgbench_log.* | awk '{print $3}' | sort -n | awk '{ l[NR] = $1 } END { printf "%.3f", l[int(NR * 0.5) + 1] / 1000 }')
  # The second line of `times`: children's user and system time, as 0m1.234s 0m0.567s.
  client_ms=$(sed -n 2p "$log/times.txt" | tr -d 's' | awk '{ split($1, u, "m"); split($2, y, "m"); printf "%d", (u[1] * 60 + u[2] + y[1] * 60 + y[2]) * 1000 }')
  echo "$tps $p50 $client_ms"
}
# measured NODES -- run-arguments...: run, plus the CPU the NODES' servers
# spent meanwhile, as "tps p50_ms client_cpu_ms server_cpu_ms".
measured() {
  local nodes=() node before=0 after=0 result
  while [ "$1" != -- ]; do nodes+=("$1"); shift; done
  shift
  for node in "${nodes[@]}"; do before=$((before + $(cpu_ms "$node"))); done
  result=$(run "$@")
  for node in "${nodes[@]}"; do after=$((after + $(cpu_ms "$node"))); done
  echo "$result $((after - before))"
}
# cpu_per_op "tps p50 client_ms server_ms": the CPU per commit as a JSON object's members.
cpu_per_op() {
  awk -v seconds="$seconds" '{ ops = $1 * seconds; printf "\"client_cpu_ms_per_op\": %.3f, \"server_cpu_ms_per_op\": %.3f", $3 / ops, $4 / ops }' <<<"$1"
}
record() {  # record SCENARIO CLIENTS "tps p50 ..." EXTRA_JSON_OBJECT
  local tps p50
  read -r tps p50 _ <<<"$3"
  jq -n -c --arg scenario "$1" --argjson clients "$2" --argjson tps "$tps" --argjson p50 "$p50" \
    --argjson extra "$4" '{scenario: $scenario, clients: $clients, ops_per_s: $tps, p50_ms: $p50} + $extra'
}
# side_by_side FILES...: "tps p50 client_ms server_ms" of runs at once: the
# sums, and the highest p50.
side_by_side() {
  cat "$@" | awk '{ tps += $1; if ($2 > p50) p50 = $2; client += $3; server += $4 }
                  END { printf "%.1f %.3f %d %d", tps, p50, client, server }'
}

start_node single 0
start_node a 0
start_node b 1
mkdir -p "$dir/router"
[ "$(id -u)" -eq 0 ] && chown postgres "$dir/router"
"$BENCH_ROOT/scripts/cluster.sh" start "$dir/router" "max_connections = 60" >/dev/null

# One node, every stream: the baseline.
partition_db single act 0 1
one=$(measured single -- single act "$script" 8)
record partitions/one_node/8_clients 8 "$one" "{\"partitions\": 1, $(cpu_per_op "$one")}"
# The same node on its core, its clients on the other: one node's own budget.
one=$(measured single -- single act "$script" 8 1)
record partitions/one_node_own_core/8_clients 8 "$one" "{\"partitions\": 1, $(cpu_per_op "$one")}"

# Two partitions, one per node, each node on its own core: both at once.
partition_db a act_p0 0 2
partition_db b act_p1 1 2
before_a=$(cpu_ms a)
before_b=$(cpu_ms b)
run a act_p0 "$script" 4 >"$dir/p0" &
run b act_p1 "$script" 4 >"$dir/p1"
wait
sed -i "s/\$/ $(($(cpu_ms a) - before_a))/" "$dir/p0"
sed -i "s/\$/ $(($(cpu_ms b) - before_b))/" "$dir/p1"
two=$(side_by_side "$dir/p0" "$dir/p1")
record partitions/two_nodes_direct/8_clients 8 "$two" \
  "{\"partitions\": 2, \"per_node_ops_per_s\": [$(cut -d' ' -f1 "$dir/p0"), $(cut -d' ' -f1 "$dir/p1")], $(cpu_per_op "$two")}"

# The same two partitions through a router.
conninfo() { (source "$dir/$1/env" && echo "host=$PGHOST port=$PGPORT dbname=$2"); }
(source "$dir/router/env" && createdb router)
on router router -c 'CREATE EXTENSION plproxy' \
  -c "CREATE SERVER act_cluster FOREIGN DATA WRAPPER plproxy OPTIONS (p0 '$(conninfo a act_p0)', p1 '$(conninfo b act_p1)')" \
  -c 'CREATE USER MAPPING FOR PUBLIC SERVER act_cluster' -f "$BENCH_ROOT/sql/router/pg_act_router.sql" >/dev/null
routed_run=$(measured a b router -- router router "$routed" 8)
record partitions/two_nodes_router/8_clients 8 "$routed_run" "{\"partitions\": 2, $(cpu_per_op "$routed_run")}"

# One client: the router's own cost per call (p50), against the same call
# direct, in interleaved rounds (a disk's flush time drifts more between
# runs than the hop costs): a commit, and act.version, which flushes nothing.
version="$dir/version.sql"
cat >"$version" <<'EOF'
\set n random(1, 100000)
SELECT act.version((SELECT stream FROM bench_streams WHERE n = :n));
EOF
routed_version="$dir/routed_version.sql"
cat >"$routed_version" <<'EOF'
\set n random(1, 400000)
SELECT act.version('s-' || :n);
EOF
rounds=$(bench_pick 5 2)
full_seconds=$seconds
seconds=$(bench_pick 4 2)
for call in commit version; do
  direct_script=$script routed_script=$routed
  [ "$call" = version ] && direct_script=$version routed_script=$routed_version
  : >"$dir/direct.$call"
  : >"$dir/router.$call"
  for _ in $(seq "$rounds"); do
    run a act_p0 "$direct_script" 1 >>"$dir/direct.$call"
    run router router "$routed_script" 1 >>"$dir/router.$call"
  done
done
seconds=$full_seconds
# median FILE: the round with the median p50, of those in FILE.
median() { sort -k2 -n "$1" | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'; }
# rounds_of FILE: the rounds' p50s, comma-separated.
rounds_of() { awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $2 }' "$1"; }
for call in commit version; do
  record "partitions/direct/1_client_$call" 1 "$(median "$dir/direct.$call")" "{\"rounds_p50_ms\": [$(rounds_of "$dir/direct.$call")]}"
  record "partitions/router/1_client_$call" 1 "$(median "$dir/router.$call")" "{\"rounds_p50_ms\": [$(rounds_of "$dir/router.$call")]}"
done

# 4 partitions on the 2 nodes (two databases each), 2 clients per partition.
partition_db a act_q0 0 4
partition_db b act_q1 1 4
partition_db a act_q2 2 4
partition_db b act_q3 3 4
for p in 0 1 2 3; do
  node=a
  [ $((p % 2)) -eq 1 ] && node=b
  run "$node" "act_q$p" "$script" 2 >"$dir/q$p" &
done
wait
record partitions/four_partitions_direct/8_clients 8 "$(side_by_side "$dir"/q?)" '{"partitions": 4}'
