#!/usr/bin/env bash
# Runs the examples of a Markdown guide and compares their output.
# Every ```psql block runs (in order, in one fresh database) and must print
# exactly the ```text block that follows it. Prints "PASSED FAILED" (examples).
set -uo pipefail
work=$1
doc=$2
dir="$work/doc-$(basename "$doc" .md)"
mkdir -p "$dir"
awk -v dir="$dir" '
  /^```psql$/ { n++; mode = "sql"; file = sprintf("%s/%03d.sql", dir, n); printf "" > file; next }
  /^```text$/ && n > 0 && !(n in expected) { expected[n] = 1; mode = "text"; file = sprintf("%s/%03d.expected", dir, n); printf "" > file; next }
  /^```/ { mode = ""; next }
  mode != "" { print >> file }
' "$doc"
db="doc_$(basename "$doc" .md)"
dropdb --if-exists "$db" >/dev/null 2>&1
createdb "$db" || { echo "0 1"; exit 0; }
passed=0
failed=0
for sql in "$dir"/*.sql; do
  [ -e "$sql" ] || continue
  expected="${sql%.sql}.expected"
  actual="${sql%.sql}.actual"
  # Notices (such as the fenced-mode one at CREATE EXTENSION) depend on the cluster.
  PGOPTIONS='-c client_min_messages=warning' psql -X -q -P pager=off -d "$db" <"$sql" >"$actual" 2>&1
  if [ -e "$expected" ] && diff -u "$expected" "$actual" >"${sql%.sql}.diff"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "--- $doc example $(basename "$sql" .sql) differs:" >&2
    cat "$sql" >&2
    cat "${sql%.sql}.diff" >&2
  fi
done
dropdb "$db"
echo "$passed $failed"
