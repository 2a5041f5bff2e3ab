#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# actctl import against the real stores it reads, each installed from its own
# npm package (test/importers/package.json, pinned, with a lock file) and
# filled through its own API on the cluster the PG* environment points at:
# Act's Postgres store (@rotorsoft/act-pg), Message DB, Emmett. For each, in
# databases of its own: a dry run writes nothing; a run stopped by --limit and
# one killed mid-way both resume without duplicates; the imported events are
# the source's (actctl's check, and the test's own reading in
# test/importers/compare.mjs; for Act also through the Act adapter, which must
# give back the original created); a target with an event more, or fewer,
# fails the check.
# npm packages are installed (npm ci) only when node_modules is missing or
# came from another lock file; the Act adapter is installed and built the
# same way (test/run-act-adapter.sh).
# Details go to stderr; the last line on stdout is "PASSED FAILED".
#   test/run-importers.sh WORK [EVENTS per store, default 3000] [path to actctl]
set -uo pipefail
events=${2:-3000}
# shellcheck source=test/actctl/lib.sh
source "$(dirname "$0")/actctl/lib.sh" "$1" "${3:-}"
suite_directory importers
needs node npm psql
check_timeout=300

# npm_ci DIR: DIR's node_modules as its lock file says.
npm_ci() {
  local sum stamp=$1/node_modules/.installed-from-lock
  sum=$(sha256sum "$1/package-lock.json" | cut -d' ' -f1)
  [ -d "$1/node_modules" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] && return 0
  echo "installing the npm packages of $1 (npm ci)" >&2
  (cd "$1" && npm ci --no-audit --no-fund) >"$dir/npm-ci.log" 2>&1 || { cat "$dir/npm-ci.log" >&2; return 1; }
  echo "$sum" >"$stamp"
}
npm_ci test/importers || cannot_run "npm ci failed in test/importers"
npm_ci adapters/act && (cd adapters/act && npm run --silent build) >"$dir/adapter-build.log" 2>&1 ||
  cannot_run "the Act adapter could not be installed or built ($dir/adapter-build.log)"

databases=()
killed=""
cleanup() {
  [ -n "$killed" ] && kill -KILL "$killed" 2>/dev/null
  for d in "${databases[@]}"; do dropdb --if-exists "$d" >/dev/null 2>&1; done
}
trap cleanup EXIT
events_in() { sql "SELECT count(*) FROM act.events" "$1"; }

fill() {  # fill PEER DB: the peer's store in DB with $events events
  databases+=("$2")
  timeout 900 test/importers/fill.sh "$1" "$2" "$events" "$dir/$1-fill.log" ||
    { cat "$dir/$1-fill.log" >&2; cannot_run "could not fill the $1 store"; }
}

for peer in act-pg message-db emmett; do
  source_db=imp_${peer//-/_}_src_$$
  target=imp_${peer//-/_}_dst_$$
  fill "$peer" "$source_db"
  src="dbname=$source_db"
  import=("$actctl" --dsn "dbname=$target" import --from "$peer" --source-dsn "$src")
  database_with_pg_act "$target"
  databases+=("$target")

  # A dry run reads all, says what it would do, and writes nothing.
  check 0 "$peer: dry run" "${import[@]}" --dry-run &&
    has "$peer: the dry run counts every event" "$out" "^dry run: would import $events events of [0-9]+ streams"
  [ "$(events_in "$target")" = 0 ] && pass || fail "$peer: the dry run wrote events"

  # Stopped by --limit: that many events, and the check sees the rest missing.
  check 0 "$peer: import --limit" "${import[@]}" --limit 500 &&
    has "$peer: --limit stops" "$out" "^stopped after 500 events"
  [ "$(events_in "$target")" = 500 ] && pass || fail "$peer: --limit 500 left $(events_in "$target") events"
  check 1 "$peer: the check of an unfinished import fails" "${import[@]}" --check-only &&
    has "$peer: it names the first missing event" "$out" "not in pg_act"

  # Killed mid-way (after its first events landed), then run again to the
  # end. Each event written takes 10 ms more meanwhile, so that the import is
  # still running when it is killed.
  sql "CREATE FUNCTION public.slow_insert() RETURNS trigger LANGUAGE plpgsql AS
       \$\$BEGIN PERFORM pg_sleep(0.01); RETURN NEW; END\$\$;
       CREATE TRIGGER slow_insert BEFORE INSERT ON act.events FOR EACH ROW EXECUTE FUNCTION public.slow_insert()" \
    "$target" >/dev/null
  "${import[@]}" >"$dir/$peer-killed.out" 2>&1 &
  killed=$!
  for _ in $(seq 600); do
    [ "$(events_in "$target")" -gt 600 ] || ! kill -0 "$killed" 2>/dev/null && break
    sleep 0.1
  done
  kill -KILL "$killed" 2>/dev/null
  wait "$killed" 2>/dev/null
  killed=""
  grep -q "^check passed" "$dir/$peer-killed.out" && fail "$peer: the import ended before it could be killed" || pass
  sql "DROP TRIGGER slow_insert ON act.events; DROP FUNCTION public.slow_insert()" "$target" >/dev/null
  check 0 "$peer: import resumed" "${import[@]}" &&
    has "$peer: resumed after the last commit" "$out" "^imported [0-9]+ events .* after source position [0-9]+" &&
    has "$peer: the check passes" "$out" "^check passed: $events events"
  [ "$(events_in "$target")" = "$events" ] && pass || fail "$peer: $(events_in "$target") events in pg_act, not $events"

  # Run again: nothing more to import, nothing written twice.
  check 0 "$peer: import again" "${import[@]}" &&
    has "$peer: nothing left" "$out" "^imported 0 events"
  [ "$(events_in "$target")" = "$events" ] && pass || fail "$peer: a run after the end wrote events"

  # The test's own reading: every event, in order, with its mapping.
  check 0 "$peer: compare.mjs" node test/importers/compare.mjs "$peer" "$source_db" "$target" &&
    has "$peer: compare.mjs finds the same events" "$out" "^same $events$"
  if [ "$peer" = act-pg ]; then
    check 0 "act-pg: read through Act on both sides" \
      env -C test/importers LOG_LEVEL=error node compare-act-adapter.mjs "$source_db" "$target" &&
      has "act-pg: the adapter gives back the source's events and times" "$out" "^same $events$"
  fi

  # pg_act a step away from the source: the check exits 1 and says where.
  stream=$(sql "SELECT stream FROM act.events ORDER BY id LIMIT 1" "$target")
  sql "SELECT 1 FROM act.commit('$stream', '[{\"name\":\"Extra\",\"data\":{}}]')" "$target" >/dev/null
  check 1 "$peer: the check of a target with an event more fails" "${import[@]}" --check-only &&
    has "$peer: it names the stream" "$out" "stream \"$stream\": [0-9]+ events in the source, [0-9]+ in pg_act"

  # A target whose stream already holds an event of its own: refused before
  # anything is written, by the dry run too.
  other=${target}_taken
  database_with_pg_act "$other"
  databases+=("$other")
  sql "SELECT 1 FROM act.commit('$stream', '[{\"name\":\"Mine\",\"data\":{}}]')" "$other" >/dev/null
  check 2 "$peer: a stream pg_act holds already is refused" \
    "$actctl" --dsn "dbname=$other" import --from "$peer" --source-dsn "$src" --dry-run &&
    has "$peer: it says where the stream stands" "$err" "stream \"$stream\", but the stream's next version in pg_act is 1"
  [ "$(events_in "$other")" = 1 ] && pass || fail "$peer: the refused import wrote events"
done

echo "$passed $failed"
