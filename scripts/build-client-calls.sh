#!/usr/bin/env bash
# Writes the client's calls of the SQL functions (client/src/store/
# statements.hpp) from their declarations (sql/api/), so each argument is
# sent with the type the function declares, and a changed signature reaches
# the client with the function:
#   scripts/build-client-calls.sh SOURCE OUTPUT
# In SOURCE, a line
#   // call: api/NAME.sql [named] [ARGUMENT=EXPRESSION]
# is followed by the line it makes,
#   #define ACT_CALL_NAME "act.NAME($1::type, $2::type, ...)"
# every argument in declaration order, $n the n-th parameter ("named": as
# name => $n::type); ARGUMENT=EXPRESSION sends that argument as EXPRESSION
# instead (the rest of the line; its own $n). The rest of SOURCE is copied.
# make writes OUTPUT and fails when it differs from SOURCE (the header is
# kept in git, so the client builds without this script, and `make
# client-calls` brings it up to date).
set -euo pipefail
cd "$(dirname "$0")/.."
source=$1
output=$2

# shellcheck source=scripts/lib/declarations.sh
source scripts/lib/declarations.sh

call() {  # call FILE NAMED OVERRIDE_ARGUMENT OVERRIDE_EXPRESSION
  local file=sql/$1 named=$2 override=$3 expression=$4 name arguments=() text="" n=0 argument type value
  name=$(basename "$file" .sql)
  read_declaration "$file"
  mapfile -t arguments < <(typed "$declared_arguments")
  local used=
  for argument in "${arguments[@]}"; do
    n=$((n + 1))
    type=${argument#* }
    argument=${argument%% *}
    value="\$$n::$type"
    if [ "$argument" = "$override" ]; then
      value=$expression
      used=yes
    fi
    [ "$named" = yes ] && value="$argument => $value"
    text+="${text:+, }$value"
  done
  [ -z "$override" ] || [ -n "$used" ] || fail "$source: act.$name has no argument $override"
  printf '#define ACT_CALL_%s "act.%s(%s)"\n' "${name^^}" "$name" "$text"
}

writing_to "$output"
replace=
while IFS= read -r line || [ -n "$line" ]; do
  if [ -n "$replace" ]; then
    [[ $line == "#define ACT_CALL_"* ]] || fail "$source: a call line is not followed by its #define ACT_CALL_ line"
    replace=
    continue
  fi
  printf '%s\n' "$line"
  if [[ $line =~ ^//\ call:\ (api/[a-z_0-9]+\.sql)(\ named)?(\ ([a-z_]+)=(.+))?$ ]]; then
    call "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]:+yes}" "${BASH_REMATCH[4]}" "${BASH_REMATCH[5]}"
    replace=yes
  fi
done <"$source" >"$tmp"
[ -z "$replace" ] || fail "$source: the last call line has no #define after it"
mv "$tmp" "$output"
