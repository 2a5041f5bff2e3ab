#!/usr/bin/env bash
# Embeds the SQL an extension file runs (extension/DIR/FILE.sql, beside
# FILE.cpp) in a header, at build time (make, see Makefile):
#   scripts/embed-sql.sh extension/DIR/FILE.sql OUTPUT
# In FILE.sql each statement follows a line `-- name: NAME`; the header
# defines act::pg::FILE_sql::kName (NAME in CamelCase) as its text.
# Lines before the first name (the file's header comment) are not embedded.
set -euo pipefail
input=$1
output=$2
file=$(basename "$input" .sql)
mkdir -p "$(dirname "$output")"
awk -v input="$input" -v file="$file" '
  function camel(name,   parts, n, i, out) {
    n = split(name, parts, "_")
    out = "k"
    for (i = 1; i <= n; i++) out = out toupper(substr(parts[i], 1, 1)) substr(parts[i], 2)
    return out
  }
  function close_entry() {
    if (name == "") return
    sub(/\n+$/, "", text)
    if (text == "") { print input ": statement " name " is empty" > "/dev/stderr"; failed = 1 }
    if (index(text, ")sql\"")) { print input ": statement " name " holds )sql\"" > "/dev/stderr"; failed = 1 }
    printf "inline constexpr char %s[] = R\"sql(%s)sql\";\n", camel(name), text
    name = ""
  }
  BEGIN {
    print "// Written by scripts/embed-sql.sh from " input ": the SQL " file ".cpp runs."
    print "#pragma once"
    print ""
    print "namespace act::pg::" file "_sql {"
    print ""
  }
  /^-- name: [a-z_0-9]+$/ {
    close_entry()
    name = $3
    if (seen[name]++) { print input ": statement " name " is named twice" > "/dev/stderr"; failed = 1 }
    text = ""
    next
  }
  name != "" { text = text (text == "" ? "" : "\n") $0 }
  END {
    close_entry()
    print ""
    print "}  // namespace act::pg::" file "_sql"
    if (failed) exit 1
  }' "$input" >"$output.tmp"
mv "$output.tmp" "$output"
