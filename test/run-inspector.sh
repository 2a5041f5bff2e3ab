#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# The web inspector (actctl serve, docs/inspector.md) in a real browser:
# headless Chromium driven by Selenium (test/inspector/checks.py) against
# four inspectors over one database of its own: one as a reader without
# personal data, one as a reader of personal data, and two as an admin,
# with --write and without, and a fifth over a router of two partitions
# (docs/scale-out.md): partition 0 a database on the same cluster, partition
# 1 an address where nothing listens. The checks say what each view must show and what each refusal
# must leave unchanged; a checkpoint cosigned by a witness (actctl witness
# serve) shows its signature lines. SCREENSHOTS=DIR saves a PNG of each view there.
# The last line on stdout is "PASSED FAILED".
#   test/run-inspector.sh WORK [path to actctl, default build/actctl]
set -uo pipefail
# shellcheck source=test/actctl/lib.sh
source "$(dirname "$0")/actctl/lib.sh"
db=inspector_$$
suite_directory inspector
needs chromium chromedriver psql openssl
# Debian's python3-selenium serves the system interpreter; a python3 of a
# virtualenv or pyenv earlier on PATH may lack it: every python3 is tried.
python=""
for candidate in $(type -ap python3); do
  if "$candidate" -c 'import selenium' 2>/dev/null; then
    python=$candidate
    break
  fi
done
[ -n "$python" ] || cannot_run "no python3 can import selenium (scripts/deps.sh installs python3-selenium)"

router_db=${db}_router
partition_db=${db}_p0    # the router's partition 0
down_host=127.0.0.1      # its partition 1: a TCP port where no server listens
down_port=1
reader=${db}_reader      # act_reader only: pii hidden
pii_reader=${db}_pii     # act_pii_reader: pii shown
admin=${db}_admin        # act_admin: actions
servers=""
cleanup() {
  local pid
  for pid in $servers; do kill -TERM "$pid" 2>/dev/null; done
  for pid in $servers; do wait "$pid" 2>/dev/null; done
  dropdb --if-exists "$db" >/dev/null 2>&1
  dropdb --if-exists "$router_db" >/dev/null 2>&1
  dropdb --if-exists "$partition_db" >/dev/null 2>&1
  psql -qX -d postgres -c "DROP ROLE IF EXISTS $reader" -c "DROP ROLE IF EXISTS $pii_reader" \
    -c "DROP ROLE IF EXISTS $admin" >/dev/null 2>&1
}
trap cleanup EXIT
database_with_pg_act "$db" \
  "CREATE ROLE $reader LOGIN IN ROLE act_reader" "CREATE ROLE $pii_reader LOGIN IN ROLE act_pii_reader" \
  "CREATE ROLE $admin LOGIN IN ROLE act_admin"
export PGDATABASE=$db
# The router's connect string to partition 0, made by the server: on this
# cluster, as this user.
partition_dsn="${PGHOST:+host=$PGHOST }${PGPORT:+port=$PGPORT }user=$(sql 'SELECT current_user') dbname=$partition_db"
database_with_pg_act "$partition_db" 'DO $$ BEGIN PERFORM act.set_partition(0, 2); END $$'
{ createdb "$router_db" &&
    PGOPTIONS="-c client_min_messages=warning" psql -qX -v ON_ERROR_STOP=1 -d "$router_db" -c "CREATE EXTENSION plproxy" \
      -c "CREATE SERVER act_cluster FOREIGN DATA WRAPPER plproxy OPTIONS (
            p0 '$partition_dsn', p1 'host=$down_host port=$down_port dbname=${db}_p1 connect_timeout=5')" \
      -c "CREATE USER MAPPING FOR PUBLIC SERVER act_cluster" -f sql/router/pg_act_router.sql >/dev/null; } ||
  cannot_run "cannot set up the router database $router_db (is postgresql-15-plproxy installed?)"

# serve NAME ROLE [OPTION...]: an inspector on a free port of 127.0.0.1 as
# ROLE (on $serve_database, default $db), its address in $address; its
# stderr in $dir/NAME.err.
serve() {
  local name=$1 role=$2
  shift 2
  timeout -k 5 600 "$actctl" serve --dsn "dbname=${serve_database:-$db} user=$role" --listen 127.0.0.1:0 "$@" \
    >"$dir/$name.out" 2>"$dir/$name.err" &
  servers="$servers $!"
  local waited
  for waited in $(seq 1 100); do
    address=$(sed -n 's/^listening on //p' "$dir/$name.out" 2>/dev/null)
    [ -n "$address" ] && return 0
    sleep 0.1
  done
  cannot_run "actctl serve ($name) did not start in $waited tenths of a second: $(cat "$dir/$name.err")"
}
serve reader "$reader"
reader_url=$address
serve pii "$pii_reader"
pii_url=$address
serve admin "$admin" --write
admin_url=$address
# An admin without --write: the refusal must not lean on the role's grants.
serve read-only "$admin"
read_only_url=$address
serve_database=$router_db serve router "$(sql 'SELECT current_user')"
router_url=$address

# Selenium's own lookup of the driver would search the network: the
# checks name Debian's chromedriver.
timeout -k 5 300 "$python" test/inspector/checks.py --db "$db" --reader "$reader_url" --pii "$pii_url" \
  --admin "$admin_url" --read-only "$read_only_url" \
  --router "$router_url" --partition-db "$partition_db" --down-address "\"$down_host\", port $down_port" --admin-log "$dir/admin.err" --actctl "$actctl" --work "$dir" ${SCREENSHOTS:+--screenshots "$SCREENSHOTS"} >"$out" 2>"$err"
code=$?
cat "$err" >&2
read -r p f < <(tail -n 1 "$out")
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-0}))
[ "$code" -eq 0 ] || [ "${f:-0}" -gt 0 ] || fail "checks.py ended with exit $code"
echo "$passed $failed"
