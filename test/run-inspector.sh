#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# The web inspector (actctl serve, docs/inspector.md) in a real browser:
# headless Chromium driven by Selenium (test/inspector/checks.py) against
# four inspectors over one database of its own: one as a reader without
# personal data, one as a reader of personal data, and two as an admin,
# with --write and without. The checks say what each view must show and what each refusal
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

reader=${db}_reader      # act_reader only: pii hidden
pii_reader=${db}_pii     # act_pii_reader: pii shown
admin=${db}_admin        # act_admin: actions
servers=""
cleanup() {
  local pid
  for pid in $servers; do kill -TERM "$pid" 2>/dev/null; done
  for pid in $servers; do wait "$pid" 2>/dev/null; done
  dropdb --if-exists "$db" >/dev/null 2>&1
  psql -qX -d postgres -c "DROP ROLE IF EXISTS $reader" -c "DROP ROLE IF EXISTS $pii_reader" \
    -c "DROP ROLE IF EXISTS $admin" >/dev/null 2>&1
}
trap cleanup EXIT
database_with_pg_act "$db" \
  "CREATE ROLE $reader LOGIN IN ROLE act_reader" "CREATE ROLE $pii_reader LOGIN IN ROLE act_pii_reader" \
  "CREATE ROLE $admin LOGIN IN ROLE act_admin"
export PGDATABASE=$db

# serve NAME ROLE [OPTION...]: an inspector on a free port of 127.0.0.1 as
# ROLE, its address in $address; its stderr in $dir/NAME.err.
serve() {
  local name=$1 role=$2
  shift 2
  timeout -k 5 600 "$actctl" serve --dsn "dbname=$db user=$role" --listen 127.0.0.1:0 "$@" \
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

# Selenium's own lookup of the driver would search the network: the
# checks name Debian's chromedriver.
timeout -k 5 300 "$python" test/inspector/checks.py --db "$db" --reader "$reader_url" --pii "$pii_url" \
  --admin "$admin_url" --read-only "$read_only_url" --admin-log "$dir/admin.err" --actctl "$actctl" --work "$dir" ${SCREENSHOTS:+--screenshots "$SCREENSHOTS"} >"$out" 2>"$err"
code=$?
cat "$err" >&2
read -r p f < <(tail -n 1 "$out")
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-0}))
[ "$code" -eq 0 ] || [ "${f:-0}" -gt 0 ] || fail "checks.py ended with exit $code"
echo "$passed $failed"
