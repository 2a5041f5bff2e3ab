# What the actctl suites against a database share; sourced first thing by
# test/actctl/run-ops.sh, run-audit.sh, run-export.sh and run-witness.sh with the
# suite's own arguments, WORK [path to actctl, default build/actctl]. It
# goes to the repository's root and sets work and actctl; a suite that
# cannot run prints "0 1" and exits 0, as every suite does.
work=$1
actctl=${2:-}
[ -n "$actctl" ] && [[ $actctl == */* ]] && actctl=$(realpath -m "$actctl")
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || { echo "0 1"; exit 0; }
actctl=${actctl:-build/actctl}
if [ ! -x "$actctl" ]; then
  echo "no actctl at $actctl (build it: cmake --build build --target actctl)" >&2
  echo "0 1"
  exit 0
fi

# cannot_run REASON: the suite reports one failure and ends.
cannot_run() {
  echo "$1" >&2
  echo "0 1"
  exit 0
}

# needs TOOL...: the commands the suite runs; python3-cryptography when
# python3 is among them (docs/audit.py and docs/tiles_verify.py need it).
needs() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || cannot_run "no $tool command (scripts/deps.sh installs it)"
    if [ "$tool" = python3 ] && ! python3 -c 'import cryptography' 2>/dev/null; then
      cannot_run "python3 cannot import cryptography (scripts/deps.sh installs python3-cryptography)"
    fi
  done
}

# suite_directory NAME: $dir is $work/actctl-NAME, emptied; $out and $err
# hold the last checked command's output.
suite_directory() {
  dir="$work/actctl-$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  out="$dir/out"
  err="$dir/err"
}

# database_with_pg_act DB [SQL...]: a new database with pg_act, then SQL.
database_with_pg_act() {
  local db=$1 statement
  shift
  local args=(-c "CREATE EXTENSION pg_act")
  for statement in "$@"; do args+=(-c "$statement"); done
  createdb "$db" && psql -qX -v ON_ERROR_STOP=1 -d "$db" "${args[@]}" >&2 ||
    cannot_run "cannot create database $db with pg_act"
}

# sql SQL [DB]: one statement's rows, unaligned (DB: $db).
sql() { psql -qXAt -v ON_ERROR_STOP=1 -d "${2:-$db}" -c "$1"; }

passed=0
failed=0
fail() { echo "FAIL: $*" >&2; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }

# check WANT DESCRIPTION COMMAND...: the command exits WANT within
# $check_timeout seconds (120 unless the suite sets it); output in $out/$err.
# A suite whose checks all run one program names it in $check_command, and
# COMMAND is then its arguments.
check() {
  local want=$1 what=$2
  shift 2
  timeout -k 5 "${check_timeout:-120}" ${check_command:+"$check_command"} "$@" >"$out" 2>"$err"
  local code=$?
  if [ "$code" -ne "$want" ]; then
    fail "$what: exit $code, wanted $want ($*)"
    sed 's/^/  out: /' "$out" | head -40 >&2
    sed 's/^/  err: /' "$err" >&2
    return 1
  fi
  pass
}
has() {  # has DESCRIPTION FILE REGEX: a line of FILE matches
  if grep -Eq -- "$3" "$2"; then pass; else fail "$1: no line matching '$3'"; sed 's/^/  | /' "$2" | head -40 >&2; fi
}
