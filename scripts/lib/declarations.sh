# Reading the declarations of sql/api/ (one function a file) from bash: the
# router's forwarders (build-router.sh) and the client's calls
# (build-client-calls.sh) are written from them.

fail() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

# writing_to OUTPUT: sets tmp, the file to write before it replaces OUTPUT,
# removed if the script fails first.
writing_to() {
  mkdir -p "$(dirname "$1")"
  tmp="$1.tmp"
  trap 'rm -f "$tmp"' EXIT
}

# read_declaration FILE: sets declared_arguments and declared_result (as
# signature prints them) from the declaration FILE, or fails.
read_declaration() {
  local lines
  [ -f "$1" ] || fail "no declaration $1"
  mapfile -t lines < <(signature "$1") || true
  [ ${#lines[@]} -eq 2 ] || fail "$1: no CREATE OR REPLACE FUNCTION ... LANGUAGE to read"
  declared_arguments=${lines[0]}
  declared_result=${lines[1]}
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

# typed ARGUMENTS: one line per argument, "NAME TYPE" (its DEFAULT dropped).
typed() {
  printf '%b' "$1" | tr '\n' ' ' | awk '{
    depth = 0; part = ""
    for (i = 1; i <= length($0); i++) {
      c = substr($0, i, 1)
      if (c == "(") depth++
      if (c == ")") depth--
      if (c == "," && depth == 0) { emit(part); part = ""; continue }
      part = part c
    }
    if (part ~ /[^ ]/) emit(part)
  }
  function emit(text) {
    sub(/ DEFAULT .*$/, "", text)
    gsub(/  +/, " ", text); sub(/^ /, "", text); sub(/ $/, "", text)
    print text
  }'
}
