#!/usr/bin/env bash
# Keeps docs/reference.md true to the catalog. In a fresh database with the
# extension (on the cluster the PG* environment points at), every function in
# schema act must be documented and every documented function must exist,
# with the same arguments (names, types, defaults), the same result and the
# same lowest role among act_reader, act_writer, act_worker, act_admin and
# act_pii_reader that may execute it, directly or through membership
# ("none" for internal functions); PUBLIC may execute none.
#
# The page's convention (docs/reference.md, "How to read this page"):
#   ### act.NAME(ARGUMENTS)          a public function, then the lines
#   Returns: `RESULT`
#   Role: `ROLE`
#   - `act._NAME(ARGUMENTS) RETURNS RESULT`: ...   under "## Internal functions"
# Each signature is declared as a scratch function in pg_temp, so Postgres
# itself normalizes it (int = integer, '{}' = '{}'::jsonb) before it is
# compared with the extension's.
#
#   test/run-reference.sh WORK [DOC]   (DOC defaults to docs/reference.md)
# Details go to stderr; the last line on stdout is "PASSED FAILED" (checks).
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1
doc=${2:-docs/reference.md}
db=reference_check
mkdir -p "$work"

# One line per documented function: line, name, role, arguments, result.
entries="$work/reference-entries.txt"
# Fields are separated by the unit separator: read keeps empty ones.
sep=$'\x1f'
awk -v FS="$sep" '
  function flush() {
    if (name != "") print line FS name FS (role == "" ? "?" : role) FS args FS (result == "" ? "?" : result)
    name = ""; role = ""; args = ""; result = ""
  }
  function unquote(text) { gsub(/^`|`$/, "", text); return text }
  /^```/ { fenced = !fenced; next }
  fenced { next }
  /^## / { flush(); internal = ($0 == "## Internal functions") }
  /^### / { flush() }
  /^### act\.[a-z_0-9]+\(.*\)$/ {
    line = NR
    open = index($0, "(")
    name = substr($0, 9, open - 9)
    args = substr($0, open + 1, length($0) - open - 1)
    next
  }
  # A heading that looks like a function but does not parse is reported, not skipped.
  /^### act\./ { print NR FS substr($0, 9) FS "?" FS "?" FS "?"; next }
  name != "" && /^Returns: / { result = unquote(substr($0, 10)); next }
  name != "" && /^Role: / { role = unquote(substr($0, 7)); next }
  internal && /^- `act\._[a-z_0-9]+\(/ {
    flush()
    text = substr($0, 4)
    text = substr(text, 1, index(text, "`") - 1)
    open = index(text, "(")
    shut = index(text, ") RETURNS ")
    if (shut == 0) { print NR FS substr(text, 5, open - 5) FS "?" FS "?" FS "?"; next }
    print NR FS substr(text, 5, open - 5) FS "none" FS substr(text, open + 1, shut - open - 1) FS substr(text, shut + 10)
  }
  END { flush() }
' "$doc" >"$entries"

# The scratch functions and the table of documented entries.
script="$work/reference-check.sql"
{
  echo "SET client_min_messages = warning;"
  echo "SET check_function_bodies = off;"
  echo "CREATE TEMP TABLE doc (line int, name text, role text, fn oid);"
  n=0
  while IFS=$sep read -r line name role args result; do
    n=$((n + 1))
    [[ $role =~ ^[a-z_?]+$ ]] || role="?"
    if [ "$result" != "?" ] && [ "$args" != "?" ]; then
      echo "CREATE FUNCTION pg_temp.doc_$n($args) RETURNS $result LANGUAGE plpgsql AS 'BEGIN END';"
    fi
    echo "INSERT INTO doc SELECT $line, '$name', '$role',"
    echo "  (SELECT p.oid FROM pg_proc p WHERE p.proname = 'doc_$n' AND p.pronamespace = pg_my_temp_schema());"
  done <"$entries"
  cat <<'SQL'
\pset format unaligned
\pset tuples_only on
\pset fieldsep '\t'
WITH cat AS (
  SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS ident,
         pg_get_function_arguments(p.oid) AS args, pg_get_function_result(p.oid) AS result,
         coalesce((SELECT u.r FROM unnest(ARRAY['act_reader', 'act_writer', 'act_worker', 'act_admin', 'act_pii_reader'])
                                   WITH ORDINALITY AS u(r, o)
                    WHERE has_function_privilege(u.r, p.oid, 'EXECUTE') ORDER BY u.o LIMIT 1), 'none') AS role,
         has_function_privilege('public', p.oid, 'EXECUTE') AS public
    FROM pg_proc p WHERE p.pronamespace = 'act'::regnamespace
), documented AS (
  SELECT d.line, d.name, d.role, d.fn, pg_get_function_identity_arguments(d.fn) AS ident,
         pg_get_function_arguments(d.fn) AS args, pg_get_function_result(d.fn) AS result
    FROM doc d WHERE d.fn IS NOT NULL
), pairs AS (
  -- The same name and arguments; or, for a name that both sides have once,
  -- the same name (so that changed arguments read as such).
  SELECT c.name, c.ident, c.args AS cat_args, c.result AS cat_result, c.role AS cat_role,
         d.line, d.args AS doc_args, d.result AS doc_result, d.role AS doc_role
    FROM cat c JOIN documented d ON d.name = c.name
     AND (d.ident = c.ident
          OR ((SELECT count(*) FROM cat c2 WHERE c2.name = c.name) = 1
              AND (SELECT count(*) FROM documented d2 WHERE d2.name = c.name) = 1))
)
SELECT CASE WHEN count(*) > 20 THEN 'ok' ELSE 'fail' END, 'the catalog lists ' || count(*) || ' functions in schema act'
  FROM cat
UNION ALL
SELECT CASE WHEN EXISTS (SELECT FROM pairs p WHERE p.name = c.name AND p.ident = c.ident) THEN 'ok' ELSE 'fail' END,
       format('act.%s(%s) is documented', c.name, c.ident)
  FROM cat c
UNION ALL
SELECT CASE WHEN d.fn IS NULL THEN 'fail' WHEN EXISTS (SELECT FROM pairs p WHERE p.line = d.line) THEN 'ok' ELSE 'fail' END,
       CASE WHEN d.fn IS NULL THEN format('line %s: the signature of act.%s does not declare (see the error above)', d.line, d.name)
            ELSE format('line %s: act.%s(%s) exists', d.line, d.name, pg_get_function_identity_arguments(d.fn)) END
  FROM doc d
UNION ALL
SELECT CASE WHEN count(*) = 1 THEN 'ok' ELSE 'fail' END,
       format('act.%s(%s) is documented once, not %s times (lines %s)', p.name, p.ident, count(*), string_agg(p.line::text, ', '))
  FROM pairs p GROUP BY p.name, p.ident
UNION ALL
SELECT CASE WHEN p.doc_args = p.cat_args THEN 'ok' ELSE 'fail' END,
       format('line %s: the arguments of act.%s: documented (%s), installed (%s)', p.line, p.name, p.doc_args, p.cat_args)
  FROM pairs p
UNION ALL
SELECT CASE WHEN p.doc_result = p.cat_result THEN 'ok' ELSE 'fail' END,
       format('line %s: the result of act.%s: documented %s, installed %s', p.line, p.name, p.doc_result, p.cat_result)
  FROM pairs p
UNION ALL
SELECT CASE WHEN p.doc_role = p.cat_role THEN 'ok' ELSE 'fail' END,
       format('line %s: the role of act.%s: documented %s, granted %s', p.line, p.name, p.doc_role, p.cat_role)
  FROM pairs p
UNION ALL
SELECT CASE WHEN count(*) = 0 THEN 'ok' ELSE 'fail' END,
       'PUBLIC may execute no function of schema act' || coalesce(' (it may: ' || string_agg(name, ', ') || ')', '')
  FROM cat WHERE public;
SQL
} >"$script"

dropdb --if-exists "$db" 2>/dev/null
if ! createdb "$db" || ! PGOPTIONS='-c client_min_messages=warning' psql -X -q -d "$db" -c 'CREATE EXTENSION pg_act' >/dev/null; then
  echo "--- reference: cannot create a database with the extension" >&2
  echo "0 1"
  exit 0
fi
passed=0
failed=0
results="$work/reference-results.tsv"
psql -X -q -d "$db" -f "$script" >"$results" 2>"$work/reference-errors.txt"
# A signature that does not declare shows why.
[ -s "$work/reference-errors.txt" ] && sed 's/^/--- reference: /' "$work/reference-errors.txt" >&2
while IFS=$'\t' read -r verdict description; do
  if [ "$verdict" = ok ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "--- reference: $description" >&2
  fi
done <"$results"
# No result at all (the script broke) is a failure, not a pass.
[ $((passed + failed)) -eq 0 ] && { echo "--- reference: no checks ran" >&2; failed=1; }
dropdb "$db"
echo "$passed $failed"
