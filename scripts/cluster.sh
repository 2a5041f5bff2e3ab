#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster on a private socket directory.
#   scripts/cluster.sh start DIR [extra postgresql.conf lines...]
#   scripts/cluster.sh stop DIR
#   scripts/cluster.sh standby PRIMARY_DIR DIR [extra postgresql.conf lines...]
#                                   a hot standby of the cluster in PRIMARY_DIR,
#                                   streaming from it, on a socket of its own
#   scripts/cluster.sh crash DIR    stops at once (no shutdown checkpoint, as a
#                                   crash would: recovery replays the WAL) and starts again
#   scripts/cluster.sh discard DIR  stops at once without checking the log (for a
#                                   test whose server crashes on purpose)
# Prints nothing on success but the connection settings file DIR/env,
# which callers source: it sets PGHOST, PGPORT, PGUSER.
set -euo pipefail

bindir=$(pg_config --bindir)
action=$1
dir=$2
shift 2

# Postgres refuses to run as root: as root, run it as the postgres user.
as_server() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# serve DIR [postgresql.conf lines...]: the cluster in DIR/data on its own
# socket directory DIR and a random port, started; DIR/env written.
serve() {
  local dir=$1 port=$(( 20000 + RANDOM % 20000 ))
  shift
  {
    echo "unix_socket_directories = '$dir'"
    echo "port = $port"
    for line in "$@"; do echo "$line"; done
  } | as_server tee -a "$dir/data/postgresql.conf" >/dev/null
  as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
  printf 'export PGHOST=%q PGPORT=%q PGUSER=postgres\n' "$dir" "$port" >"$dir/env"
}

case "$action" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_server "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
    serve "$dir" "listen_addresses = ''" "fsync = on" "max_connections = 60" "log_min_messages = warning" "$@"
    ;;
  standby)
    primary=$dir
    dir=$1
    shift
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    # shellcheck disable=SC1091
    (source "$primary/env" && as_server "$bindir/pg_basebackup" -h "$PGHOST" -p "$PGPORT" -U postgres -D "$dir/data" \
      -R -X stream -c fast)
    serve "$dir" "hot_standby = on" "$@"
    ;;
  stop)
    [ -d "$dir/data" ] && as_server "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    if grep -E 'terminated by signal|PANIC' "$dir/server.log" 2>/dev/null; then
      echo "the server log shows a crash (above)" >&2
      exit 1
    fi
    ;;
  crash)
    as_server "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 start >/dev/null
    ;;
  discard)
    [ -d "$dir/data" ] && as_server "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 start|stop|crash|discard DIR, or $0 standby PRIMARY_DIR DIR" >&2
    exit 2
    ;;
esac
