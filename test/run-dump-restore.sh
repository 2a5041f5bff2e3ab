#!/usr/bin/env bash
# pg_dump / pg_restore round trip of a populated database (test/operations/
# populate.sql) on the cluster the PG* environment points at: every event,
# subscription, work mark, checkpoint, lease and anchor comes back, ids go on
# from where they were, and the chains verify. Details go to stderr, the last
# line on stdout is "PASSED FAILED" (checks).
set -uo pipefail
cd "$(dirname "$0")/.."
work=$1
bindir=$(pg_config --bindir)
source_db=dump_source
restored_db=dump_restored
dump="$work/dump_source.dump"
suite="dump/restore"
# shellcheck source=test/operations/checks.sh
source test/operations/checks.sh

for db in "$source_db" "$restored_db"; do dropdb --if-exists "$db" 2>/dev/null; done
if ! createdb "$source_db" || ! sql "$source_db" -c 'CREATE EXTENSION pg_act' >/dev/null ||
   ! sql "$source_db" -f test/operations/populate.sql >/dev/null; then
  echo "--- dump/restore: could not populate $source_db" >&2
  echo "0 1"
  exit 0
fi
before=$(sql "$source_db" -f test/operations/contents.sql)
# Every table holds rows, so the comparison below compares something.
check "the source database has rows in every table" \
  test "$(echo "$before" | awk -F'|' '$2 == 0' | wc -l)" -eq 0

check "pg_dump" "$bindir/pg_dump" --format=custom --file="$dump" "$source_db"
check "pg_restore into a new database" \
  bash -c "createdb '$restored_db' && '$bindir/pg_restore' --exit-on-error --dbname='$restored_db' '$dump'"
after=$(sql "$restored_db" -f test/operations/contents.sql 2>&1)
while IFS='|' read -r table rows digest; do
  check "$table comes back as it was (before: $rows rows, $digest)" grep -qxF "$table|$rows|$digest" <<<"$after"
done <<<"$before"
check "every stream's chain verifies after the restore" \
  test "$(sql "$restored_db" -c "SELECT format('%s invalid of %s', count(*) FILTER (WHERE NOT valid), count(*)) FROM act.verify()")" = "0 invalid of 20"
check "ids go on after the highest restored one" \
  test "$(sql "$restored_db" -c "SELECT (SELECT id FROM act.commit('after-restore', '[{\"name\": \"A\"}]')) = max(id) + 1 FROM act.events WHERE stream <> 'after-restore'")" = t
check "a closed stream stays closed" \
  grep -q 'stream "order-2" is closed' <<<"$(sql "$restored_db" -c "SELECT 1 FROM act.commit('order-2', '[{\"name\": \"A\"}]')" 2>&1)"
check "leases survive: the worker holding one acknowledges it" \
  test "$(sql "$restored_db" -c "SELECT stream FROM act.ack('[{\"stream\": \"placed-1x\", \"by\": \"worker-1\", \"at\": 1}]')")" = placed-1x

dropdb "$source_db"
dropdb "$restored_db"
rm -f "$dump"
echo "$passed $failed"
