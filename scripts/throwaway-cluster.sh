# Sourced by scripts that need a throwaway cluster for their run (bench/run.sh,
# bench/check.sh, scripts/stress.sh).
#   bench_cluster_start fenced|concurrent [postgresql.conf lines...]
#                                   starts it (concurrent: pg_act preloaded), exports PG*
#   bench_cluster_stop                               stops and removes it
# The cluster is stopped on exit whatever happens.
bench_cluster=""
bench_cluster_stop() {
  [ -n "$bench_cluster" ] || return 0
  scripts/cluster.sh stop "$bench_cluster/pg"
  rm -rf "$bench_cluster"
  bench_cluster=""
}
bench_cluster_start() {
  local mode=$1
  shift
  [ "$mode" = concurrent ] && set -- "$@" "shared_preload_libraries = 'pg_act'"
  bench_cluster=$(mktemp -d /tmp/pg_act_bench.XXXXXX)
  chmod 755 "$bench_cluster"
  scripts/cluster.sh start "$bench_cluster/pg" "$@"
  # shellcheck disable=SC1091
  source "$bench_cluster/pg/env"
}
trap bench_cluster_stop EXIT
