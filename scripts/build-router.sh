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

# shellcheck source=scripts/lib/declarations.sh
source scripts/lib/declarations.sh

forwarder() {  # forwarder FILE PER_PARTITION RUN_ON_OR_RESULT
  local file=sql/$1 per_partition=$2 extra=$3 name arguments result
  name=$(basename "$file" .sql)
  read_declaration "$file"
  arguments=$declared_arguments
  result=$declared_result
  if [ "$per_partition" = yes ]; then
    [ -n "$extra" ] && result=$extra
    result=${result#RETURNS }
    printf "CALL pg_temp.forward_p('%s', \$\$%b\$\$, '%b');\n" "$name" "$arguments" "${result//\'/\'\'}"
  else
    printf 'CREATE FUNCTION act.%s(%b)\n%b LANGUAGE plproxy AS $$\n' "$name" "$arguments" "$result"
    printf "  CLUSTER 'act_cluster';\n  RUN ON %s;\n\$\$;\n" "$extra"
  fi
}

writing_to "$output"
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
