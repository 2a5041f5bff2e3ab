#!/usr/bin/env bash
# make check: the inner loop. Builds what it runs and installs the extension,
# runs core's GoogleTest suites (ctest), then, on a throwaway cluster in
# fenced mode (pg_act not preloaded), the client library's suite, the pgTAP
# suites and the isolation specs. make test stays the full gate: every suite,
# both modes.
#   scripts/check.sh [SUITE...]        default: gtest client pgtap isolation
#     gtest, client, pgtap, isolation  every test of that kind
#     gtest:REGEX                      core's tests whose name matches (ctest -R)
#     client:FILTER                    client tests matching a GoogleTest filter (Store*, App*Load*)
#     pgtap:NAME                       test/sql/NAME.sql
#     isolation:NAME                   test/isolation/specs/NAME.spec
#     NAME                             the pgTAP suite and/or isolation spec of that name
# Ends with one line "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "scripts/check.sh: $1" >&2
  sed -n 's/^#   //p' "$0" >&2
  echo "0 passed, 1 failed"
  exit 2
}

declare -A whole=() picked=()
pick() { picked[$1]="${picked[$1]:+${picked[$1]} }$2"; }
[ $# -eq 0 ] && set -- gtest client pgtap isolation
for suite in "$@"; do
  case "$suite" in
    gtest | client | pgtap | isolation) whole[$suite]=1 ;;
    gtest:?* | client:?*) pick "${suite%%:*}" "${suite#*:}" ;;
    pgtap:?*)
      [ -f "test/sql/${suite#*:}.sql" ] || usage "no pgTAP suite test/sql/${suite#*:}.sql"
      pick pgtap "${suite#*:}"
      ;;
    isolation:?*)
      [ -f "test/isolation/specs/${suite#*:}.spec" ] || usage "no isolation spec test/isolation/specs/${suite#*:}.spec"
      pick isolation "${suite#*:}"
      ;;
    *:* | -*) usage "no suite $suite" ;;
    *)
      found=""
      [ -f "test/sql/$suite.sql" ] && pick pgtap "$suite" && found=1
      [ -f "test/isolation/specs/$suite.spec" ] && pick isolation "$suite" && found=1
      [ -n "$found" ] || usage "no pgTAP suite or isolation spec named $suite"
      ;;
  esac
done
wanted() { [ -n "${whole[$1]:-}${picked[$1]:-}" ]; }
chosen() { [ -n "${whole[$1]:-}" ] || echo "${picked[$1]:-}"; }  # the names picked; none: every one
# In fenced mode a *_concurrent spec would block: commits wait for each other.
for spec in ${picked[isolation]:-}; do
  [[ $spec == *_concurrent ]] && usage "$spec needs pg_act preloaded (concurrent mode): make test runs it"
done

# Only the test programs the chosen suites run.
targets=(act_core)
wanted gtest && targets+=(core_tests)
wanted client && targets+=(client_tests)
scripts/build.sh --with=tests "${targets[@]}" || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

# shellcheck source=scripts/lib/suites.sh
source scripts/lib/suites.sh

if wanted gtest; then
  names=$(chosen gtest)
  read -r p f < <(gtest_suites ${names:+-R "${names// /|}"})
  count gtest "$p" "$f"
fi

if wanted client || wanted pgtap || wanted isolation; then
  if cluster_start fenced; then
    if wanted client; then
      names=$(chosen client)
      read -r p f < <(test/run-client.sh "$cluster" ${names:+--gtest_filter="${names// /:}"})
      count client "$p" "$f"
    fi
    if wanted pgtap; then
      # shellcheck disable=SC2046
      read -r p f < <(test/run-pgtap.sh "$cluster" $(chosen pgtap))
      count pgtap "$p" "$f"
    fi
    if wanted isolation; then
      # shellcheck disable=SC2046
      read -r p f < <(test/run-isolation.sh "$cluster" $(chosen isolation))
      count isolation "$p" "$f"
    fi
    cluster_stop fenced
  fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
