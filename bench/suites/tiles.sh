#!/usr/bin/env bash
# The log mirrored as C2SP tiles (docs/verifiable-log.md, "Mirroring the log
# as tiles"): a log of 1,000,000 entries (20 commits of 50,000 events, then
# one seal and a signed checkpoint) exported by `actctl log export` into an
# empty directory, then again after 1,000 more entries (incremental: the full
# files are re-read from the directory and checked, not rewritten), and the
# export verified by docs/tiles_verify.py from its files alone; each timed
# once (entries/s). Then a sample of inclusion and consistency proofs that
# tiles_verify.py computes from the tiles must equal act.prove_inclusion's
# and act.prove_consistency's, or the suite fails.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
entries=$(bench_pick 1000000 100000)
per_commit=50000
samples=$(bench_pick 40 10)
actctl="$BENCH_ROOT/build/actctl"
verifier="$BENCH_ROOT/docs/tiles_verify.py"
bench_database bench_tiles
work="$BENCH_WORK/tiles"
rm -rf "$work"
mkdir -p "$work"

echo "tiles: committing $entries events..." >&2
psql -X -q -At -v ON_ERROR_STOP=1 -c "
  SELECT count(*) FROM generate_series(1, $entries / $per_commit) c,
    LATERAL act.commit('tiles-' || c, (SELECT jsonb_agg(jsonb_build_object('name', 'bench.event',
      'data', jsonb_build_object('index', i))) FROM generate_series(1, $per_commit) i))" >/dev/null
psql -X -q -At -c 'SELECT size FROM act.seal()' >/dev/null
openssl genpkey -algorithm ed25519 -out "$work/log.pem" 2>/dev/null
vkey=$("$actctl" log vkey --key "$work/log.pem" --name "pg_act/$PGDATABASE")
psql -X -q -At -c "SELECT act.register_log_key('$vkey')" >/dev/null
"$actctl" log checkpoint --sign "$work/log.pem" >/dev/null

# timed NAME COMMAND...: runs it once; its wall time in ms in timed_ms.
timed() {
  local name=$1 started ended
  shift
  started=$(date +%s%N)
  "$@" >"$work/$name.out" 2>"$work/$name.err" || { cat "$work/$name.out" "$work/$name.err" >&2; exit 1; }
  ended=$(date +%s%N)
  timed_ms=$(( (ended - started) / 1000000 ))
}
# record SCENARIO MS ENTRIES: one run's record.
record() {
  jq -n -c --arg scenario "$1" --argjson ms "$2" --argjson entries "$3" '
    {scenario: $scenario, clients: 1, samples: 1, p50_ms: $ms, p95_ms: $ms, ops_per_s: (1000 / $ms),
     seconds: ($ms / 1000), entries: $entries, entries_per_s: ($entries * 1000 / $ms | round)}'
}
label="$((entries / 1000))k_entries"

timed export "$actctl" log export "$work/tiles"
record "actctl/log_export/$label" "$timed_ms" "$entries"
psql -X -q -At -c "SELECT count(*) FROM act.commit('tiles-more', (SELECT jsonb_agg(jsonb_build_object('name', 'bench.event',
  'data', jsonb_build_object('index', i))) FROM generate_series(1, 1000) i))" >/dev/null
"$actctl" log checkpoint --sign "$work/log.pem" >/dev/null
size=$((entries + 1000))
timed export_again "$actctl" log export "$work/tiles"
grep -q "checkpoint of size $size .*extends the size $entries" "$work/export_again.out" ||
  { echo "tiles: the second export did not extend the first" >&2; cat "$work/export_again.out" >&2; exit 1; }
record "actctl/log_export_incremental/$label" "$timed_ms" "$size"
timed verify python3 "$verifier" "$work/tiles" --vkey "$vkey"
record "python/tiles_verify/$label" "$timed_ms" "$size"

# The proofs of a random sample, from the tiles and from the database.
read -r -a indices <<<"$(shuf -i 0-$((size - 1)) -n "$samples" | tr '\n' ' ')"
read -r -a olds <<<"$(shuf -i 1-$((size - 1)) -n "$samples" | tr '\n' ' ')"
args=()
for i in "${indices[@]}"; do args+=(--inclusion "$i"); done
for m in "${olds[@]}"; do args+=(--consistency "$m" "$size"); done
python3 "$verifier" "$work/tiles" --vkey "$vkey" "${args[@]}" | grep -E '^(inclusion|consistency) ' | sort >"$work/proofs.py"
path_hex() {  # path_hex SQL: a bytea[] as comma-separated hex, '-' when empty
  echo "coalesce(nullif(array_to_string(ARRAY(SELECT encode(h, 'hex') FROM unnest($1) WITH ORDINALITY AS u(h, o) ORDER BY o), ','), ''), '-')"
}
psql -X -q -At -v ON_ERROR_STOP=1 >"$work/proofs.sql.unsorted" <<SQL
SELECT format('inclusion %s %s %s %s %s', p.leaf_index, p.tree_size, encode(p.leaf_hash, 'hex'), encode(p.root, 'hex'),
              $(path_hex p.path))
  FROM unnest('{$(IFS=,; echo "${indices[*]}")}'::bigint[]) i, act.log_entries(i, i + 1) e, act.prove_inclusion(e.id, $size) p;
SELECT format('consistency %s %s %s %s %s', m, $size, encode(act.merkle_root(m), 'hex'), encode(act.merkle_root($size), 'hex'),
              $(path_hex "act.prove_consistency(m, $size)"))
  FROM unnest('{$(IFS=,; echo "${olds[*]}")}'::bigint[]) m;
SQL
sort "$work/proofs.sql.unsorted" >"$work/proofs.sql"
if [ "$(wc -l <"$work/proofs.py")" -ne $((2 * samples)) ] || ! cmp -s "$work/proofs.py" "$work/proofs.sql"; then
  echo "tiles: the proofs from the tiles differ from the database's" >&2
  diff "$work/proofs.py" "$work/proofs.sql" | head -4 >&2
  exit 1
fi
echo "tiles: $((2 * samples)) proofs from the tiles equal the database's" >&2
rm -rf "$work"
