# Expands a declaration of sql/api/ (awk -f expand-declaration.awk FILE):
# the line "-- grant ROLE: COMMENT" after each CREATE OR REPLACE FUNCTION
# becomes its COMMENT ON FUNCTION, its REVOKE ALL ... FROM PUBLIC and its
# GRANT EXECUTE ... TO ROLE; "-- grant none" (an internal act._name) the
# REVOKE alone. The signature they name (argument types) is read from the
# CREATE, so it is written once. Fails on a CREATE without its grant line.
function trim(t) { sub(/^[ \n\t]+/, "", t); sub(/[ \n\t]+$/, "", t); return t }
function types(args,    depth, part, out, i, c, n) {
  depth = 0; part = ""; out = ""; n = 0
  for (i = 1; i <= length(args); i++) {
    c = substr(args, i, 1)
    if (c == "(") depth++
    if (c == ")") depth--
    if (c == "," && depth == 0) { out = out (n++ ? ", " : "") type_of(part); part = ""; continue }
    part = part c
  }
  if (trim(part) != "") out = out (n++ ? ", " : "") type_of(part)
  return out
}
function type_of(arg) {
  gsub(/\n/, " ", arg); sub(/ DEFAULT .*$/, "", arg); gsub(/  +/, " ", arg); arg = trim(arg)
  sub(/^[^ ]+ /, "", arg)   # the argument's name
  return arg
}
/^CREATE OR REPLACE FUNCTION / { on = 1; text = ""; pending++ }
on && /^LANGUAGE / {
  on = 0
  start = index(text, "("); depth = 0
  for (i = start; i <= length(text); i++) {
    c = substr(text, i, 1)
    if (c == "(") depth++
    if (c == ")" && --depth == 0) break
  }
  name = substr(text, length("CREATE OR REPLACE FUNCTION ") + 1, start - length("CREATE OR REPLACE FUNCTION ") - 1)
  signature = name "(" types(substr(text, start + 1, i - start - 1)) ")"
}
on { text = text (text == "" ? "" : "\n") $0 }
/^-- grant / {
  if (pending != 1) { print FILENAME ": a \"-- grant\" line must follow each CREATE OR REPLACE FUNCTION once" > "/dev/stderr"; exit 1 }
  pending = 0
  line = substr($0, length("-- grant ") + 1)
  role = line; comment = ""
  if (index(line, ": ") > 0) { role = substr(line, 1, index(line, ": ") - 1); comment = substr(line, index(line, ": ") + 2) }
  if (role == "none" && comment != "") { print FILENAME ": an internal function (grant none) has no comment" > "/dev/stderr"; exit 1 }
  if (role != "none" && comment == "") { print FILENAME ": \"-- grant " role "\" needs \": COMMENT\"" > "/dev/stderr"; exit 1 }
  if (comment != "") { gsub(/'/, "''", comment); print "COMMENT ON FUNCTION " signature " IS '" comment "';" }
  print "REVOKE ALL ON FUNCTION " signature " FROM PUBLIC;"
  if (role != "none") print "GRANT EXECUTE ON FUNCTION " signature " TO " role ";"
  next
}
{ print }
END { if (pending) { print FILENAME ": no \"-- grant ROLE: COMMENT\" (or \"-- grant none\") after its CREATE OR REPLACE FUNCTION" > "/dev/stderr"; exit 1 } }
