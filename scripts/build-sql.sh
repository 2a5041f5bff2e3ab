#!/usr/bin/env bash
# Builds an extension script from its sources (run by make, see Makefile):
#   scripts/build-sql.sh OUTPUT SOURCE...
# The sources are concatenated; a line `-- include: PATH` is replaced by the
# file PATH (relative to sql/; a glob such as api/*.sql takes its files in
# name order). So every function is written once, in its declaration
# sql/api/NAME.sql, and the install script (sql/src/) and each unreleased
# upgrade script (sql/upgrades/FROM--TO.sql) include the declarations they
# create or replace.
#
# Checked here, so that a mistake fails the build rather than an install:
# - an included file exists and is included once (but a predicate of
#   sql/predicates/, which several indexes and the claim share);
# - a declaration creates only functions named after its file, each with
#   CREATE OR REPLACE (an upgrade script replaces what an older version
#   has) and each followed by its grant line, which becomes its comment,
#   its REVOKE ALL ... FROM PUBLIC (a function created by an upgrade script
#   would be PUBLIC's otherwise) and its GRANT (lib/expand-declaration.awk);
# - the output is not a released script: sql/pg_act--FROM--TO.sql in git is
#   frozen, and its source in sql/upgrades/ must go (CONTRIBUTING.md,
#   "Releasing a version").
set -euo pipefail
cd "$(dirname "$0")/.."
output=$1
shift
name=$(basename "$output")

fail() {
  echo "build-sql.sh: $*" >&2
  exit 1
}

if [ -e "sql/$name" ] && { ! git rev-parse --git-dir >/dev/null 2>&1 || git ls-files --error-unmatch "sql/$name" >/dev/null 2>&1; }; then
  fail "sql/$name is released (frozen): its source must not be built any more; delete it from sql/upgrades/"
fi

# check_declaration FILE: the rules above for one sql/api file (its grant
# lines are checked as it is expanded).
check_declaration() {
  local file=$1 function=$(basename "$1" .sql)
  if grep -n '^CREATE FUNCTION ' "$file" >&2; then
    fail "$file: declarations use CREATE OR REPLACE FUNCTION (upgrade scripts include them)"
  fi
  grep -q '^CREATE OR REPLACE FUNCTION ' "$file" ||
    fail "$file declares no function (CREATE OR REPLACE FUNCTION act.$function)"
  if grep -n '^CREATE OR REPLACE FUNCTION ' "$file" | grep -v "FUNCTION act\.$function(" >&2; then
    fail "$file: declares only act.$function (one file per function, overloads together)"
  fi
  if grep -n '^\(REVOKE\|GRANT\|COMMENT ON FUNCTION\) ' "$file" >&2; then
    fail "$file: its grant line (-- grant ROLE: COMMENT) says this, once"
  fi
}

declare -A included=()
# emit FILE: FILE's lines with its include lines expanded.
emit() {
  local line pattern path
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^--\ include:\ (.+)$ ]]; then
      pattern=${BASH_REMATCH[1]}
      local matches=()
      # Globs in name order whatever the locale.
      mapfile -t matches < <(cd sql && LC_ALL=C compgen -G "$pattern" | LC_ALL=C sort)
      [ ${#matches[@]} -gt 0 ] || fail "$1: nothing to include at $pattern (relative to sql/)"
      for path in "${matches[@]}"; do
        # A predicate (sql/predicates/) is shared by several indexes; a declaration is included once.
        if [[ $path != predicates/* ]]; then
          [ -z "${included[$path]:-}" ] || fail "$1: sql/$path is included twice (also by ${included[$path]})"
          included[$path]=$1
        fi
        if [[ $path == api/* ]]; then
          check_declaration "sql/$path"
          awk -f scripts/lib/expand-declaration.awk "sql/$path" || fail "sql/$path: see above"
        else
          cat "sql/$path"
        fi
      done
    else
      printf '%s\n' "$line"
    fi
  done <"$1"
}

if [ $# -eq 1 ]; then from=$1; else from="$(dirname "$1")/"; fi
mkdir -p "$(dirname "$output")"
tmp="$output.tmp"
trap 'rm -f "$tmp"' EXIT
{
  echo "-- Built by scripts/build-sql.sh from $from and the files it includes."
  for source in "$@"; do emit "$source"; done
} >"$tmp"
mv "$tmp" "$output"
