#!/usr/bin/env bash
# Runs the isolation specs of test/isolation with pg_isolation_regress against
# the running cluster; prints "PASSED FAILED" (specs).
#   test/run-isolation.sh WORK [SPEC...]   SPEC: a file of test/isolation/specs
#                                          without .spec; default: every one
#                                          the cluster's mode can run
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1
shift
runner="$(dirname "$(pg_config --pgxs)")/../test/isolation/pg_isolation_regress"
mode=$(psql -X -At -c "SELECT CASE WHEN current_setting('shared_preload_libraries') LIKE '%pg_act%' THEN 'concurrent' ELSE 'fenced' END")
# *_concurrent specs would block in fenced mode, where commits wait for each other.
if [ $# -eq 0 ]; then
  specs=$(cd test/isolation/specs && ls *.spec | sed 's/\.spec$//' | { if [ "$mode" = concurrent ]; then cat; else grep -v '_concurrent$'; fi; })
else
  specs="$*"
  for spec in $specs; do
    [ -f "test/isolation/specs/$spec.spec" ] || { echo "no isolation spec test/isolation/specs/$spec.spec" >&2; echo "0 1"; exit 0; }
    if [ "$mode" = fenced ] && [[ $spec == *_concurrent ]]; then
      echo "$spec needs the concurrent mode (pg_act preloaded): it would block in fenced mode" >&2; echo "0 1"; exit 0
    fi
  done
fi
out="$work/isolation-$mode"
mkdir -p "$out"
# --use-existing does not create the database; each spec creates and drops the extension.
dropdb --if-exists act_isolation 2>/dev/null; createdb act_isolation || { echo "0 1"; exit 0; }
"$runner" --use-existing --host="$PGHOST" --port="$PGPORT" --user=postgres \
  --inputdir=test/isolation --outputdir="$out" --dbname=act_isolation \
  $specs >"$out/run.log" 2>&1
passed=$(grep -cE '^(ok|test) .* ok( |$)' "$out/run.log")
failed=$(grep -cE 'FAILED|failed \(ignored\)' "$out/run.log")
total=$(echo "$specs" | wc -w)
if [ $((passed + failed)) -ne "$total" ]; then failed=$((total - passed)); fi
if [ "$failed" -gt 0 ]; then
  cat "$out/run.log" >&2
  cat "$out/regression.diffs" >&2 2>/dev/null
fi
echo "$passed $failed"
