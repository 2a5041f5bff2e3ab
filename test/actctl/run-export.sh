#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# `actctl log export` and docs/tiles_verify.py against the cluster the PG*
# environment points at, in a database of their own. The log grows across
# tile boundaries with a signed checkpoint and an export at each step, each
# verified from the files alone (with the step before pinned); full files are
# never rewritten, partial ones are; every inclusion and consistency proof of
# every size up to 300, computed from the tiles, equals act.prove_inclusion's
# and act.prove_consistency's; a tampered tile, bundle or checkpoint is
# refused, and a tampered database is never exported; the directory served by
# python3 -m http.server verifies by URL. Details go to stderr; the last line
# on stdout is "PASSED FAILED".
#   test/actctl/run-export.sh WORK [path to actctl, default build/actctl]
set -uo pipefail
export LC_ALL=C  # sort and join agree on the order
# shellcheck source=test/actctl/lib.sh
source "$(dirname "$0")/lib.sh"
needs openssl python3
db=actctl_export_$$
suite_directory export
tiles="$dir/tiles"
database_with_pg_act "$db"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; dropdb --if-exists "$db" >/dev/null 2>&1' EXIT
export PGDATABASE=$db

check_timeout=300  # check: seconds a command may take

openssl genpkey -algorithm ed25519 -out "$dir/log.pem" 2>/dev/null
openssl genpkey -algorithm ed25519 -out "$dir/other.pem" 2>/dev/null
origin="pg_act/$db"
vkey=$("$actctl" log vkey --key "$dir/log.pem" --name "$origin")
sql "SELECT act.register_log_key('$vkey')" >/dev/null
export_tiles=("$actctl" log export)
verify=(python3 docs/tiles_verify.py --vkey "$vkey")

check 2 "export without a checkpoint" "${export_tiles[@]}" "$tiles" && has "no checkpoint" "$err" "no checkpoint yet"
[ ! -e "$tiles/checkpoint" ] && pass || fail "an export without a checkpoint wrote one"

# grow_to SIZE: events up to SIZE entries (one commit), then a signed checkpoint.
grow_to() {
  local have
  have=$(sql "SELECT count(*) FROM act.events")
  sql "SELECT count(*) FROM act.commit('s-$1', (SELECT jsonb_agg(jsonb_build_object('name', 'E', 'data',
       jsonb_build_object('i', g))) FROM generate_series(1, $1 - $have) g))" >/dev/null
  "$actctl" log checkpoint --sign "$dir/log.pem" >/dev/null || fail "actctl log checkpoint at size $1"
}
# files KIND: "path inode mtime" of every full (KIND=full) or partial tile and bundle.
files() {
  (cd "$tiles" 2>/dev/null && find tile -type f -printf '%p %i %T@\n' | sort) |
    if [ "$1" = full ]; then grep -v '\.p/'; else grep '\.p/'; fi
}

# The log grows across the tile boundaries; each step is exported and
# verified, the step before pinned. Full files stay as they are.
previous=""
for size in 1 2 3 7 8 255 256 257 300 511 512 513 700; do
  grow_to "$size"
  files full >"$dir/full.before"
  check 0 "export at size $size" "${export_tiles[@]}" "$tiles" &&
    has "export at size $size" "$out" "^exported the checkpoint of size $size "
  files full | join - "$dir/full.before" | awk '$2 != $4 || $3 != $5' >"$dir/changed"
  [ -s "$dir/changed" ] && fail "size $size: full files rewritten: $(head -3 "$dir/changed")" || pass
  check 0 "verify at size $size" "${verify[@]}" "$tiles" ${previous:+--pin "$previous"} &&
    has "verify at size $size" "$out" "hold the $size entries; every entry, tile and the root verify"
  [ -n "$previous" ] && has "pinned at size $size" "$out" "pinned checkpoint of size [0-9]+ is a prefix"
  cp "$tiles/checkpoint" "$dir/checkpoint.$size"
  previous="$dir/checkpoint.$size"
done
[ -z "$(find "$tiles" -name '*.tmp-*')" ] && pass || fail "temporary files left in the export"
has "the full tiles of 700 entries" <(files full) "^tile/0/001 "
has "the full bundles of 700 entries" <(files full) "^tile/entries/001 "
has "the partial tiles of 700 entries" <(files partial) "^tile/0/002.p/188 "
has "the partial level-1 tile" <(files partial) "^tile/1/000.p/2 "
has "the partial entry bundle" <(files partial) "^tile/entries/002.p/188 "
[ "$(cat "$tiles/checkpoint")" = "$(sql "SELECT note FROM act.checkpoints ORDER BY size DESC LIMIT 1")" ] && pass ||
  fail "the exported checkpoint is not the stored note"

# The same checkpoint again: the tree's partial files are replaced, the full
# ones kept, and so are the partial files of earlier checkpoints (a reader
# that holds one of those may still need them).
files partial >"$dir/partial.before"
files full >"$dir/full.before"
check 0 "export again" "${export_tiles[@]}" "$tiles" && has "export again" "$out" "2 tiles and 1 entry bundles written \(3 partial\), 4 full files kept"
files partial | join - "$dir/partial.before" | awk '$2 != $4 {print $1}' >"$dir/replaced"
[ "$(tr '\n' ' ' <"$dir/replaced")" = "tile/0/002.p/188 tile/1/000.p/2 tile/entries/002.p/188 " ] && pass ||
  fail "the partial files replaced: $(tr '\n' ' ' <"$dir/replaced")"
[ "$(wc -l <"$dir/partial.before")" -gt 10 ] && cmp -s <(files partial | cut -d' ' -f1) <(cut -d' ' -f1 "$dir/partial.before") &&
  pass || fail "partial files of earlier checkpoints were removed"
cmp -s <(files full) "$dir/full.before" && pass || fail "the full files changed on a second export"

# Every inclusion and consistency proof of every size up to 300 from the
# tiles equals the database's (both sides verified by tiles_verify.py too).
check 0 "every proof up to 300" "${verify[@]}" "$tiles" --every-proof 300 && grep '^inclusion\|^consistency' "$out" | sort >"$dir/proofs.py"
psql -qXAt -v ON_ERROR_STOP=1 >"$dir/proofs.sql.unsorted" <<'SQL' || fail "the database's proofs"
SELECT format('inclusion %s %s %s %s %s', p.leaf_index, p.tree_size, encode(p.leaf_hash, 'hex'), encode(p.root, 'hex'),
              coalesce(nullif(array_to_string(ARRAY(SELECT encode(h, 'hex') FROM unnest(p.path) WITH ORDINALITY
                                                      AS u(h, o) ORDER BY o), ','), ''), '-'))
  FROM generate_series(1, 300) n, act.log_entries(0, n) e, act.prove_inclusion(e.id, n) p;
WITH r AS MATERIALIZED (SELECT n, encode(act.merkle_root(n), 'hex') AS root FROM generate_series(1, 300) n)
SELECT format('consistency %s %s %s %s %s', a.n, b.n, a.root, b.root,
              coalesce(nullif(array_to_string(ARRAY(SELECT encode(h, 'hex') FROM unnest(act.prove_consistency(a.n, b.n))
                                                      WITH ORDINALITY AS u(h, o) ORDER BY o), ','), ''), '-'))
  FROM r a JOIN r b ON a.n < b.n;
SQL
sort "$dir/proofs.sql.unsorted" >"$dir/proofs.sql"
[ "$(wc -l <"$dir/proofs.sql")" = $((300 * 301 / 2 + 300 * 299 / 2)) ] && pass ||
  fail "the database gave $(wc -l <"$dir/proofs.sql") proofs"
if cmp -s "$dir/proofs.py" "$dir/proofs.sql"; then pass; else
  fail "the proofs from the tiles differ from the database's"; diff "$dir/proofs.py" "$dir/proofs.sql" | head -5 >&2
fi
check 0 "one inclusion proof" "${verify[@]}" "$tiles" --inclusion 600 &&
  has "one inclusion proof" "$out" "^$(sql "SELECT format('inclusion %s %s %s %s %s', p.leaf_index, p.tree_size,
    encode(p.leaf_hash, 'hex'), encode(p.root, 'hex'), array_to_string(ARRAY(SELECT encode(h, 'hex')
    FROM unnest(p.path) WITH ORDINALITY AS u(h, o) ORDER BY o), ','))
    FROM act.log_entries(600, 601) e, act.prove_inclusion(e.id, 700) p")\$"
check 0 "one consistency proof" "${verify[@]}" "$tiles" --consistency 5 700 && has "one consistency proof" "$out" "^consistency 5 700 "
# The RFC 9162 checks refuse a proof one hash too long or too short.
check 0 "proofs of the wrong length are refused" python3 - "$tiles" <<'PY'
import sys
sys.path.insert(0, "docs")
import audit, tiles_verify
tiles = tiles_verify.Tiles(tiles_verify.fetcher(sys.argv[1]), 700)
for n in range(1, 90):
    root = tiles.root(n)
    for i in range(n):
        path, leaf = tiles.inclusion(i, n), tiles.leaf(i)
        assert audit.verify_inclusion(i, n, leaf, path, root)
        assert not audit.verify_inclusion(i, n, leaf, path + [root], root), (i, n)
        assert not path or not audit.verify_inclusion(i, n, leaf, path[:-1], root), (i, n)
    for m in range(1, n):
        path, old = tiles.consistency(m, n), tiles.root(m)
        assert audit.verify_consistency(m, old, n, root, path)
        assert not audit.verify_consistency(m, old, n, root, path + [root]), (m, n)
        assert not audit.verify_consistency(m, old, n, root, path[:-1]), (m, n)
PY

# Tampered copies of the export: each refused, naming the fault.
# tampered DESCRIPTION REGEX COMMAND...: the command damages the copy in $copy.
copy="$dir/copy"
tampered() {
  local what=$1 regex=$2
  shift 2
  rm -rf "$copy" && cp -a "$tiles" "$copy" && "$@"
  check 3 "tampered: $what" "${verify[@]}" "$copy" --pin "$dir/checkpoint.1" && has "tampered: $what" "$err" "^verify failed: .*$regex"
}
flip() {  # flip FILE OFFSET: one byte changed
  printf '\xff' | dd of="$copy/$1" bs=1 seek="$2" conv=notrunc status=none
}
tampered "a full level-0 tile" "entry 3 in tile/entries/000 is not in tile/0/000" flip tile/0/000 100
tampered "a full entry bundle" "entry 257 in tile/entries/001 is not in tile/0/001" flip tile/entries/001 40
tampered "a partial tile" "entry 699 in tile/entries/002.p/188 is not in tile/0/002.p/188" flip tile/0/002.p/188 6000
tampered "a partial bundle" "entry 699 in tile/entries/002.p/188" flip tile/entries/002.p/188 6368
tampered "a level-1 tile" "tile/1/000.p/2 holds .* at 1, but tile/0/001 hashes to" flip tile/1/000.p/2 40
tampered "a missing tile" "tile/0/001 is missing" rm "$copy/tile/0/001"
tampered "a bundle cut short" "tile/entries/000 holds 255 entries" truncate -s -34 "$copy/tile/entries/000"
forged_root=$(sql "SELECT encode(sha256('forged'), 'base64')")
tampered "the checkpoint's root" "signature .*does not verify" sed -i "3s|.*|$forged_root|" "$copy/checkpoint"
resign() {  # resign KEY BODY: the copy's checkpoint replaced by BODY signed with KEY
  printf '%s' "$2" | "$actctl" log sign --key "$1" --name "$origin" - >"$copy/checkpoint"
}
tampered "a checkpoint by another key" "no signature by a given --vkey" resign "$dir/other.pem" "$(head -3 "$tiles/checkpoint")
"
tampered "a re-signed root" "root of the tiles is .*not the checkpoint's" resign "$dir/log.pem" "$origin
700
$forged_root
"
printf '%s\n%s\n%s\n' "$origin" 5 "$forged_root" | "$actctl" log sign --key "$dir/log.pem" --name "$origin" - >"$dir/fork.pin"
check 3 "a pin the export does not extend" "${verify[@]}" "$tiles" --pin "$dir/fork.pin" &&
  has "a pin the export does not extend" "$err" "not consistent with the pinned one of size 5"
rm -rf "$dir/old" && mkdir -p "$dir/old" && cp -a "$tiles/." "$dir/old" && cp "$dir/checkpoint.300" "$dir/old/checkpoint"
check 3 "a rollback below the pin" "${verify[@]}" "$dir/old" --pin "$dir/checkpoint.700" &&
  has "a rollback below the pin" "$err" "size 300, below the pinned size 700"

# A database whose tree does not hold is never exported: the directory keeps
# the checkpoint and files it had, and no temporary file.
snapshot() { (cd "$tiles" && find . -type f -printf '%p %i %T@\n' | sort); }
refused() {  # refused DESCRIPTION REGEX: export exits 3 naming it; the directory unchanged
  snapshot >"$dir/snapshot"
  check 3 "$1" "${export_tiles[@]}" "$tiles" && has "$1" "$err" "^not exported: .*$2"
  cmp -s <(snapshot) "$dir/snapshot" && pass || fail "$1: the directory changed"
}
grow_to 710
saved=$(sql "SELECT encode(hashes, 'hex') FROM act.log_tiles WHERE level = 0 AND idx = 2")
sql "UPDATE act.log_tiles SET hashes = overlay(hashes PLACING sha256('forged') FROM 32 * 195 + 1 FOR 32) WHERE level = 0 AND idx = 2"
refused "a tampered partial tile in the database" "entry 707 is not in tile/0/002.p/198"
sql "UPDATE act.log_tiles SET hashes = decode('$saved', 'hex') WHERE level = 0 AND idx = 2"
saved=$(sql "SELECT encode(entries, 'hex') FROM act.log_entries WHERE idx = 2")
sql "UPDATE act.log_entries SET entries = overlay(entries PLACING sha256('forged') FROM 32 * 190 + 1 FOR 32) WHERE idx = 2"
refused "a tampered entry in the database" "entry 702 is not in tile/0/002.p/198"
sql "UPDATE act.log_entries SET entries = decode('$saved', 'hex') WHERE idx = 2"
saved=$(sql "SELECT encode(hashes, 'hex') FROM act.log_tiles WHERE level = 1 AND idx = 0")
sql "UPDATE act.log_tiles SET hashes = overlay(hashes PLACING sha256('forged') FROM 1 FOR 32) WHERE level = 1 AND idx = 0"
refused "a tampered level-1 tile in the database" "tile/1/000.p/2 holds .* at 0, but tile/0/000 hashes to"
sql "UPDATE act.log_tiles SET hashes = decode('$saved', 'hex') WHERE level = 1 AND idx = 0"
# A directory holding a checkpoint the log is not an extension of (the log
# rewritten since that export, or another log): refused.
cp "$tiles/checkpoint" "$dir/checkpoint.saved"
printf '%s\n%s\n%s\n' "$origin" 700 "$forged_root" | "$actctl" log sign --key "$dir/log.pem" --name "$origin" - >"$tiles/checkpoint"
refused "a directory whose checkpoint the log does not extend" "does not extend the exported one of size 700"
cp "$dir/checkpoint.saved" "$tiles/checkpoint"
flip_dir() { printf '\xff' | dd of="$tiles/$1" bs=1 seek="$2" conv=notrunc status=none; }
cp "$tiles/tile/0/001" "$dir/tile.saved"
flip_dir tile/0/001 64
refused "a damaged full tile in the directory" "entry 258 is not in tile/0/001"
cp "$dir/tile.saved" "$tiles/tile/0/001"
check 0 "export once restored" "${export_tiles[@]}" "$tiles" && has "restored" "$out" "size 710 .*extends the size 700"

# Served by a static file server, verified by URL.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$tiles" "$port" >"$dir/http.log" 2>&1 &
server=$!
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/checkpoint', timeout=1)" 2>/dev/null && break
  sleep 0.2
done
check 0 "verify by URL" "${verify[@]}" "http://127.0.0.1:$port/" --pin "$dir/checkpoint.300" --inclusion 3 &&
  has "verify by URL" "$out" "hold the 710 entries; every entry, tile and the root verify" &&
  has "verify by URL" "$out" "pinned checkpoint of size 300 is a prefix"
mv "$tiles/tile/entries/001" "$dir/bundle.saved"
check 3 "a missing bundle by URL" "${verify[@]}" "http://127.0.0.1:$port" && has "by URL" "$err" "tile/entries/001 is missing"
mv "$dir/bundle.saved" "$tiles/tile/entries/001"
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
server=""

echo "$passed $failed"
