#!/usr/bin/env bash
# Writes the router's forwarders (sql/router/pg_act_router.sql) from the
# declarations of the functions they forward (sql/api/), so that a changed
# argument, default or result reaches the router with the function:
#   scripts/build-router.sh SOURCE OUTPUT
# In SOURCE, a block
#   -- forward: api/NAME.sql RUN ON EXPRESSION
#   ...
#   -- end forward
# becomes act.NAME with the declaration's arguments and result, forwarded by
# PL/Proxy to the partition EXPRESSION names; a block
#   -- forward per partition: api/NAME.sql [RETURNS RESULT]
# becomes a CALL of pg_temp.forward_p(NAME, the declaration's arguments, its
# result or RESULT), which the script defines to create act.NAME_p(partition
# int, the arguments) calling act.NAME in that partition.
# Whatever the block held is replaced; the rest of SOURCE is copied. make
# writes OUTPUT and fails when it differs from SOURCE (the script is kept in
# git, ready to run, and `make router` brings it up to date).
set -euo pipefail
cd "$(dirname "$0")/.."
source=$1
output=$2

fail() {
  echo "build-router.sh: $*" >&2
  exit 1
}

# signature FILE: the declaration's arguments (between the parentheses after
# its name) and its result (from RETURNS to LANGUAGE), on two lines of
# output; a newline inside either is kept as \n.
signature() {
  awk '
    /^CREATE OR REPLACE FUNCTION / { on = 1 }
    on && /^LANGUAGE / { on = 0; done = 1 }
    on { text = text (text == "" ? "" : "\n") $0 }
    END {
      if (!done) exit 1
      start = index(text, "(")
      depth = 0
      for (i = start; i <= length(text); i++) {
        c = substr(text, i, 1)
        if (c == "(") depth++
        if (c == ")" && --depth == 0) break
      }
      arguments = substr(text, start + 1, i - start - 1)
      result = substr(text, i + 1)
      sub(/^[ \n]+/, "", result)
      sub(/[ \n]+$/, "", result)
      gsub(/\n/, "\\n", arguments)
      gsub(/\n/, "\\n", result)
      print arguments
      print result
    }' "$1"
}

# names ARGUMENTS: the argument names, comma-separated.
names() {
  printf '%b' "$1" | tr '\n' ' ' | awk '{
    depth = 0; part = ""; out = ""
    for (i = 1; i <= length($0); i++) {
      c = substr($0, i, 1)
      if (c == "(") depth++
      if (c == ")") depth--
      if (c == "," && depth == 0) { out = out first(part) ", "; part = ""; continue }
      part = part c
    }
    print out first(part)
  }
  function first(text) { sub(/^ +/, "", text); split(text, words, " "); return words[1] }'
}

forwarder() {  # forwarder FILE PER_PARTITION RUN_ON_OR_RESULT
  local file=sql/$1 per_partition=$2 extra=$3 name arguments result lines
  name=$(basename "$file" .sql)
  [ -f "$file" ] || fail "$source: no declaration $file"
  mapfile -t lines < <(signature "$file") || true
  [ ${#lines[@]} -eq 2 ] || fail "$file: no CREATE OR REPLACE FUNCTION ... LANGUAGE to read"
  arguments=${lines[0]}
  result=${lines[1]}
  if [ "$per_partition" = yes ]; then
    [ -n "$extra" ] && result=$extra
    result=${result#RETURNS }
    printf "CALL pg_temp.forward_p('%s', \$\$%b\$\$, '%b');\n" "$name" "$arguments" "${result//\'/\'\'}"
  else
    printf 'CREATE FUNCTION act.%s(%b)\n%b LANGUAGE plproxy AS $$\n' "$name" "$arguments" "$result"
    printf "  CLUSTER 'act_cluster';\n  RUN ON %s;\n\$\$;\n" "$extra"
  fi
}

tmp="$output.tmp"
trap 'rm -f "$tmp"' EXIT
mkdir -p "$(dirname "$output")"
skipping=
while IFS= read -r line || [ -n "$line" ]; do
  if [ -n "$skipping" ]; then
    if [ "$line" = "-- end forward" ]; then
      printf '%s\n' "$line"
      skipping=
    fi
    continue
  fi
  printf '%s\n' "$line"
  if [[ $line =~ ^--\ forward:\ (api/[a-z_0-9]+\.sql)\ RUN\ ON\ (.+)$ ]]; then
    forwarder "${BASH_REMATCH[1]}" no "${BASH_REMATCH[2]}"
    skipping=yes
  elif [[ $line =~ ^--\ forward\ per\ partition:\ (api/[a-z_0-9]+\.sql)(\ RETURNS\ (.+))?$ ]]; then
    forwarder "${BASH_REMATCH[1]}" yes "${BASH_REMATCH[3]:+RETURNS ${BASH_REMATCH[3]}}"
    skipping=yes
  fi
done <"$source" >"$tmp"
[ -z "$skipping" ] || fail "$source: a forward block has no '-- end forward'"
mv "$tmp" "$output"
