#!/usr/bin/env bash
# ALTER EXTENSION pg_act UPDATE from every older version that has an update
# path to the current default (so from the previous one, in every future
# version too): the updated extension must equal a fresh install
# (test/operations/catalog.sql), keep its data and work. Runs against the
# cluster the PG* environment points at; details go to stderr, the last line
# on stdout is "PASSED FAILED" (checks).
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1
suite="upgrade"
# shellcheck source=test/operations/checks.sh
source test/operations/checks.sh

fresh_db=upgrade_fresh
dropdb --if-exists "$fresh_db" 2>/dev/null
createdb "$fresh_db" && sql "$fresh_db" -c 'CREATE EXTENSION pg_act' >/dev/null || { echo "0 1"; exit 0; }
current=$(sql "$fresh_db" -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_act'")
sql "$fresh_db" -f test/operations/catalog.sql >"$work/catalog-$current.txt"
check "the catalog of a fresh $current lists its functions and tables" \
  test "$(grep -cE '^(function|relation): ' "$work/catalog-$current.txt")" -gt 20
older=$(sql "$fresh_db" -c "SELECT source FROM pg_extension_update_paths('pg_act')
                            WHERE target = '$current' AND path IS NOT NULL ORDER BY source")
# A version with nothing to upgrade from is a packaging mistake, not a pass.
check "an older version has an update path to $current" test -n "$older"

for version in $older; do
  db=upgrade_from_$(echo "$version" | tr -c '0-9a-z\n' _)
  dropdb --if-exists "$db" 2>/dev/null
  if ! createdb "$db" || ! sql "$db" -c "CREATE EXTENSION pg_act VERSION '$version'" >/dev/null ||
     ! sql "$db" -f test/operations/populate.sql >/dev/null; then
    check "install and populate $version" false
    continue
  fi
  before=$(sql "$db" -v without_removal_records=true -f test/operations/contents.sql)
  # Entries whose events are gone (a truncate of the populated data), in a
  # version with the log's tree: the update must account for them.
  missing=0
  if [ "$(sql "$db" -c "SELECT to_regclass('act.log_entries') IS NOT NULL")" = t ]; then
    missing=$(sql "$db" -c "SELECT count(*) FROM act.log_entries b, unnest(b.ids) x(id)
                            WHERE NOT EXISTS (SELECT 1 FROM act.events e WHERE e.id = x.id)")
  fi
  check "$version updates to $current" \
    test "$(sql "$db" -c 'ALTER EXTENSION pg_act UPDATE' -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_act'")" = "$current"
  sql "$db" -f test/operations/catalog.sql >"$work/catalog-from-$version.txt"
  check "$version updated to $current equals a fresh $current (diff below)" \
    diff -u "$work/catalog-$current.txt" "$work/catalog-from-$version.txt" >&2
  check "the update from $version accounts for the $missing entries already missing by one record marked before_upgrade" \
    test "$(sql "$db" -c "SELECT coalesce(string_agg(data ->> 'removed', ','), '0') FROM act.events
                          WHERE stream = '__truncations__' AND data ? 'before_upgrade'")" = "$missing"
  check "the update from $version keeps every row" \
    test "$(sql "$db" -v without_removal_records=true -f test/operations/contents.sql)" = "$before"
  check "after the update from $version: the chains verify, commits, subscriptions, claims and acks work" \
    test "$(sql "$db" <<'SQL'
SELECT count(*) FROM act.commit('order-3', '[{"name": "Shipped"}]');
SELECT count(*) FROM act.subscribe('[{"stream": "after-update", "source": "order-3"}]');
SELECT count(*) FROM act.ack((SELECT jsonb_agg(jsonb_build_object('stream', stream, 'by', by, 'at', 0))
  FROM act.claim(10, 0, 'worker-9', 60000) WHERE stream = 'after-update'));
SELECT bool_and(valid) FROM act.verify();
SQL
)" = "$(printf '1\n1\n1\nt')"
  # From a version before the log's tree, the tree starts with the update; from
  # one with it, the tree goes on. Either way the first seal takes in every event.
  check "after the update from $version: the first seal takes in every event, and the tree verifies" \
    test "$(sql "$db" -c 'SELECT count(*) FROM act.seal()' \
                      -c 'SELECT count(*) FROM act.events e WHERE act.log_position(e.id) IS NULL' \
                      -c 'SELECT count(*) FROM act.verify_log()')" = "$(printf '1\n0\n0')"
  dropdb "$db"
done
dropdb "$fresh_db"
echo "$passed $failed"
