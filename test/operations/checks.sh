# Sourced by test/run-dump-restore.sh, test/run-upgrade.sh and test/run-prometheus.sh:
# counted checks and psql in the form they compare. Set `suite` before sourcing.
passed=0
failed=0
check() {  # check DESCRIPTION COMMAND...: counts one check, reports a failed one on stderr
  local description=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "--- $suite: $description" >&2
  fi
}
sql() {  # sql DATABASE [psql arguments...]: unaligned, tuples only, stop at the first error
  local db=$1
  shift
  PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "$@"
}
