#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# The log's two auditors, `actctl log audit` and docs/audit.py, and `actctl
# log checkpoint --sign`, against the cluster the PG* environment points at, in
# a database of their own. A clean log passes (trust on first use, then
# consistency with the pin, full and sampled, truncated streams included), and
# docs/audit.py's proof checks refuse every generated mutation; each
# kind of tampering fails with exit 3 and a line naming it: an event's data or tag, a
# stored entry, a tile, a signed checkpoint inconsistent with the pin, a
# rollback, a signature that does not verify. Every missing entry must be
# accounted for by a removal record: after truncates, a close and forget_pii
# both pass and count them (apart for a record not yet in the checkpoint);
# events deleted without a record, a whole stream gone, a record's listed
# positions edited (one taken out, a present one added, one swapped so that
# only the digest tells) and a record's event deleted each fail naming it.
# Details go to stderr; the last line on stdout is "PASSED FAILED".
#   test/actctl/run-audit.sh WORK [path to actctl, default build/actctl]
set -uo pipefail
# shellcheck source=test/actctl/lib.sh
source "$(dirname "$0")/lib.sh"
needs openssl python3
db=actctl_audit_$$
suite_directory audit
database_with_pg_act "$db"
trap 'dropdb --if-exists "$db" >/dev/null 2>&1' EXIT
export PGDATABASE=$db

# docs/audit.py's proof checks, without the database: every proof of trees of
# up to 24 entries holds and every mutation of it is refused
# (test/actctl/audit_proofs.py, its cases from test/actctl/proof_probes.py).
read -r proof_passed proof_failed < <(python3 test/actctl/audit_proofs.py 24 2>"$dir/audit-proofs.err" | tail -n 1)
# One check, however many cases (each wrong verdict is a line on stderr).
if [ -n "${proof_failed:-}" ] && [ "$proof_passed" -gt 0 ]; then
  [ "$proof_failed" -eq 0 ] && pass || failed=$((failed + proof_failed))
else
  failed=$((failed + 1))
  echo "FAIL: test/actctl/audit_proofs.py reported nothing" >&2
fi
sed 's/^/  audit_proofs: /' "$dir/audit-proofs.err" >&2

# The log's key, registered; another key, not registered.
openssl genpkey -algorithm ed25519 -out "$dir/log.pem" 2>/dev/null
openssl genpkey -algorithm ed25519 -out "$dir/other.pem" 2>/dev/null
origin="pg_act/$db"
vkey=$("$actctl" log vkey --key "$dir/log.pem" --name "$origin")
other_vkey=$("$actctl" log vkey --key "$dir/other.pem" --name "$origin")
sql "SELECT act.register_log_key('$vkey')" >/dev/null

commit() {  # commit STREAM EVENTS_JSON
  sql "SELECT count(*) FROM act.commit('$1', '$2')" >/dev/null
}
# A log with a retention-window truncate (deleted events, an anchor), a full
# truncate (a stream re-seeded at version 0), and text beyond ASCII.
commit orders '[{"name":"Placed","data":{"sku":"A1","qty":2}},{"name":"Paid","data":{"amount":1.50}},{"name":"Packed"}]'
commit cart '[{"name":"Added","data":{"sku":"B2"}},{"name":"Removed","data":{"sku":"B2"}}]'
commit orders '[{"name":"__snapshot__","data":{"state":"packed"}},{"name":"Shipped","data":{"by":"post"}}]'
sql "SELECT count(*) FROM act.commit('ström-1', '[{\"name\":\"Grüße\",\"data\":{\"text\":\"naïve café \\u2603\",
     \"nested\":{\"a\":[1,2,{\"b\":null}]}}}]', '{\"correlation\":\"c-1\"}')" >/dev/null
sql "SELECT count(*) FROM act.truncate('[{\"stream\":\"orders\",\"before\":\"infinity\"},{\"stream\":\"cart\",\"snapshot\":{\"items\":0}}]')" >/dev/null
commit orders '[{"name":"Delivered"}]'
commit tagged '[{"name":"Enrolled","tags":["course:c1","student:s1"]}]'
[ "$(sql "SELECT count(*) FROM act.stream_anchors")" = 1 ] && pass || fail "the windowed truncate left no anchor"

# actctl log checkpoint: an unregistered key is refused (2); the log's key
# signs, and the stored note verifies.
check 2 "checkpoint signed by an unregistered key" "$actctl" log checkpoint --sign "$dir/other.pem"
has "checkpoint signed by an unregistered key" "$err" "not registered"
check 0 "checkpoint --sign" "$actctl" log checkpoint --sign "$dir/log.pem" --pin "$dir/signer.pin"
cp "$out" "$dir/checkpoint.note"
check 0 "the signed checkpoint verifies" "$actctl" log verify-note --vkey "$vkey" "$dir/checkpoint.note"
check 0 "the signer's pin verifies" "$actctl" log verify-note --vkey "$vkey" "$dir/signer.pin"
size1=$(sql "SELECT max(size) FROM act.checkpoints")
[ "$(sql "SELECT size FROM act.log_size()")" = "$size1" ] && [ "$size1" -gt 8 ] && pass ||
  fail "the checkpoint's size $size1 is not the log's"
has "the checkpoint's first line is the origin" "$dir/checkpoint.note" "^$origin\$"

auditors=(actctl py)
auditor() {  # auditor WHO: the command of that auditor, with a pin file of its own, in the array $cmd
  if [ "$1" = actctl ]; then
    cmd=("$actctl" log audit --pin "$dir/pin.$1")
  else
    cmd=(python3 docs/audit.py --pin "$dir/pin.$1")
  fi
}
# fails AUDITOR DESCRIPTION REGEX ARGS...: the audit exits 3 naming the fault; the pin stays.
fails() {
  local who=$1 what=$2 regex=$3
  shift 3
  cp "$dir/pin.$who" "$dir/pin.before"
  auditor "$who"
  check 3 "$who: $what" "${cmd[@]}" --vkey "$vkey" "$@" && has "$who: $what" "$err" "^audit failed: .*$regex"
  cmp -s "$dir/pin.$who" "$dir/pin.before" && pass || fail "$who: $what: the pin changed"
}
more_events() {  # more_events N: N commits to a new stream, then a signed checkpoint
  local i
  for i in $(seq 1 "$1"); do commit "more-$RANDOM" "[{\"name\":\"E$i\",\"data\":{\"i\":$i}}]"; done
  "$actctl" log checkpoint --sign "$dir/log.pem" >/dev/null || fail "actctl log checkpoint failed"
}

for who in "${auditors[@]}"; do
  auditor "$who"
  rm -f "$dir/pin.$who"
  check 2 "$who: no pin and no --init" "${cmd[@]}" --vkey "$vkey" && has "$who: no pin" "$err" "does not exist.*--init"
  check 0 "$who: --init trusts the checkpoint on first use" "${cmd[@]}" --vkey "$vkey" --init --full &&
    has "$who: --init" "$out" "size $size1 .*signed by $origin\+"
  check 0 "$who: the pin is the checkpoint" "$actctl" log verify-note --vkey "$vkey" "$dir/pin.$who"
  check 0 "$who: the same checkpoint again, sampled" "${cmd[@]}" --vkey "$vkey" --sample 5
  check 2 "$who: another key does not verify the pin" "${cmd[@]}" --vkey "$other_vkey" --full &&
    has "$who: another key" "$err" "does not verify with the given --vkey"
done

# The log grows; an unsigned checkpoint above the signed one is skipped.
more_events 3
size2=$(sql "SELECT max(size) FROM act.checkpoints")
sql "SELECT count(*) FROM act.commit('unsigned', '[{\"name\":\"U\"}]')" >/dev/null
sql "SELECT act.checkpoint(false)" >/dev/null
for who in "${auditors[@]}"; do
  auditor "$who"
  check 0 "$who: consistent with the pin, full" "${cmd[@]}" --vkey "$vkey" --full &&
    has "$who: consistent" "$out" "pinned checkpoint of size $size1 is a prefix" &&
    has "$who: the newest signed checkpoint" "$out" "size $size2 "
  check 0 "$who: every entry sampled" "${cmd[@]}" --vkey "$vkey" --sample 1000 &&
    has "$who: every entry sampled" "$out" "entries: $size2 of $size2 checked"
done

# Tampering, with the pins one checkpoint behind the newest.
more_events 2
size3=$(sql "SELECT max(size) FROM act.checkpoints")
target=$(sql "SELECT id FROM act.events WHERE stream = 'ström-1' AND version = 0")
position=$(sql "SELECT act.log_position($target)")

saved=$(sql "SELECT data::text FROM act.events WHERE id = $target")
sql "UPDATE act.events SET data = '{\"text\": \"changed\"}' WHERE id = $target"
for who in "${auditors[@]}"; do
  fails "$who" "an event's data changed (full)" "event id $target .*is not the hash of its content" --full
  fails "$who" "an event's data changed (sampled)" "event id $target .*is not the hash of its content" --sample 1000
done
sql "UPDATE act.events SET data = '$saved' WHERE id = $target"

tagged=$(sql "SELECT id FROM act.events WHERE stream = 'tagged'")
sql "UPDATE act.event_tags SET tag = 'student:s2' WHERE id = $tagged AND tag = 'student:s1'"
for who in "${auditors[@]}"; do
  fails "$who" "an event's tag changed" "event id $tagged .*is not the hash of its content" --full
done
sql "UPDATE act.event_tags SET tag = 'student:s1' WHERE id = $tagged AND tag = 'student:s2'"

saved=$(sql "SELECT encode(entries, 'hex') FROM act.log_entries WHERE idx = 0")
sql "UPDATE act.log_entries SET entries = overlay(entries PLACING sha256('forged') FROM 32 * $position + 1 FOR 32) WHERE idx = 0"
for who in "${auditors[@]}"; do
  fails "$who" "a stored entry changed (full)" "entry $position .*the entry holds hash" --full
  fails "$who" "a stored entry changed (sampled)" "entry $position .*the entry holds hash" --sample 1000
done
sql "UPDATE act.log_entries SET entries = decode('$saved', 'hex') WHERE idx = 0"

# Leaf $size2 is the first the pins do not cover: the consistency proof from
# them to the newest checkpoint reads it, whatever the sizes.
saved=$(sql "SELECT encode(hashes, 'hex') FROM act.log_tiles WHERE level = 0 AND idx = 0")
sql "UPDATE act.log_tiles SET hashes = overlay(hashes PLACING sha256('forged') FROM 32 * $size2 + 1 FOR 32) WHERE level = 0 AND idx = 0"
for who in "${auditors[@]}"; do
  fails "$who" "a tile changed" "size $size3 .*is not consistent with the pinned one of size $size2" --sample 3
done
sql "UPDATE act.log_tiles SET hashes = decode('$saved', 'hex') WHERE level = 0 AND idx = 0"

# A fork: a checkpoint signed with the log's key (a signer that was fooled)
# at a larger size, with another root.
sql "SELECT count(*) FROM act.commit('fork', '[{\"name\":\"F\"}]')" >/dev/null
size4=$(sql "SELECT size FROM act.seal()")
printf '%s\n%s\n%s\n' "$origin" "$size4" "$(sql "SELECT encode(sha256('another tree'), 'base64')")" >"$dir/fork.body"
"$actctl" log sign --key "$dir/log.pem" --name "$origin" "$dir/fork.body" >"$dir/fork.note"
psql -qX -v ON_ERROR_STOP=1 -v note="$(cat "$dir/fork.note")" -v size="$size4" >&2 <<'SQL'
INSERT INTO act.checkpoints (size, root, note) VALUES (:size, sha256('another tree'), :'note' || E'\n');
SQL
for who in "${auditors[@]}"; do
  fails "$who" "a signed checkpoint inconsistent with the pin" "size $size4 .*is not consistent with the pinned one" \
    --full
done
sql "DELETE FROM act.checkpoints WHERE size = $size4"

# A rollback: the checkpoints from the pinned size up are gone.
sql "CREATE TABLE public.hidden AS SELECT * FROM act.checkpoints WHERE size >= $size2;
     DELETE FROM act.checkpoints WHERE size >= $size2"
for who in "${auditors[@]}"; do
  fails "$who" "the checkpoints rolled back below the pin" "size $size1, below the pinned size $size2" --full
done
sql "INSERT INTO act.checkpoints SELECT * FROM public.hidden; DROP TABLE public.hidden"

# A signature changed in the stored note.
saved=$(sql "SELECT note FROM act.checkpoints WHERE size = $size3" | grep . | tail -n 1)
changed=$(sed -E 's/^([^ ]+ [^ ]+ .{8}).{4}/\1AAAA/' <<<"$saved")  # signature bytes, not the key ID
sql "UPDATE act.checkpoints SET note = replace(note, '$saved', '$changed') WHERE size = $size3"
for who in "${auditors[@]}"; do
  fails "$who" "a checkpoint whose signature does not verify" "size $size3.*does not verify" --full
done
sql "UPDATE act.checkpoints SET note = replace(note, '$changed', '$saved') WHERE size = $size3"

# Restored, the log passes again and the pins move on.
for who in "${auditors[@]}"; do
  auditor "$who"
  check 0 "$who: restored, full" "${cmd[@]}" --vkey "$vkey" --full &&
    has "$who: restored" "$out" "pinned checkpoint of size $size2 is a prefix"
  check 0 "$who: restored, sampled" "${cmd[@]}" --vkey "$vkey" --sample 4 &&
    has "$who: restored, sampled" "$out" "entries: 4 of $size3 checked"
  has "$who: the pin moved" "$dir/pin.$who" "^$size3\$"
done

# The signer refuses a checkpoint inconsistent with the one it signed last.
printf '%s\n%s\n%s\n' "$origin" "$size3" "$(sql "SELECT encode(sha256('not this log'), 'base64')")" >"$dir/forged.body"
"$actctl" log sign --key "$dir/log.pem" --name "$origin" "$dir/forged.body" >"$dir/signer.pin"
before=$(sql "SELECT count(*) FROM act.checkpoints")
check 3 "checkpoint --pin with a pin the log does not extend" "$actctl" log checkpoint --sign "$dir/log.pem" \
  --pin "$dir/signer.pin" && has "the signer says why" "$err" "^not signed: .*not consistent"
[ "$(sql "SELECT count(*) FROM act.checkpoints")" = "$before" ] && pass || fail "a refused checkpoint was stored"

# ---- Completeness: every missing entry accounted for by a removal record ------------
# Legitimate removals: the window and the compaction above (one act.truncate
# call, one record), a close, a retention window over a stream whose events
# interleave with another's (a record listing positions with gaps), and
# forget_pii (no record: pii is not hashed).
for v in 0 1 2; do
  commit span "[{\"name\":\"S$v\"}]"
  commit victim "[{\"name\":\"V$v\"}]"
done
commit span '[{"name":"__snapshot__","data":{"n":3}}]'
commit whole '[{"name":"W0"},{"name":"W1"}]'
commit closing '[{"name":"C0"},{"name":"C1"}]'
sql "SELECT count(*) FROM act.commit('person', '[{\"name\":\"P\",\"pii\":{\"email\":\"p@example.com\"}}]')" >/dev/null
sql "SELECT count(*) FROM act.truncate('[{\"stream\":\"closing\"}]')" >/dev/null
sql "SELECT count(*) FROM act.truncate(format('[{\"stream\":\"span\",\"before\":%s}]', to_jsonb(clock_timestamp()))::jsonb)" >/dev/null
sql "SELECT act.forget_pii('person')" >/dev/null
"$actctl" log checkpoint --sign "$dir/log.pem" >/dev/null || fail "actctl log checkpoint failed"
size5=$(sql "SELECT max(size) FROM act.checkpoints")
missing() {  # the entries of the tree of size $1 whose event is gone
  sql "SELECT count(*) FROM act.log_entries(0, $1) l WHERE NOT EXISTS (SELECT FROM act.events e WHERE e.id = l.id)"
}
deleted=$(missing "$size5")
[ "$(sql "SELECT count(*) FROM act.log_removals()")" = 3 ] && [ "$deleted" -ge 9 ] && pass ||
  fail "three truncate calls left $(sql "SELECT count(*) FROM act.log_removals()") records, $deleted missing entries"
for who in "${auditors[@]}"; do
  auditor "$who"
  check 0 "$who: truncates, a close and forget_pii, full" "${cmd[@]}" --vkey "$vkey" --full &&
    has "$who: every missing entry accounted for" "$out" \
      "$deleted deleted and accounted for by removal records \(0 by records not yet in this checkpoint\)"
  check 0 "$who: the same, every entry sampled" "${cmd[@]}" --vkey "$vkey" --sample 100000 &&
    has "$who: sampled, accounted for" "$out" "$deleted deleted and accounted for by removal records"
done

# A record not yet in the pinned checkpoint's tree: the stream "late" is in
# the checkpoint, its close is not (unsealed, then sealed beyond it).
commit late '[{"name":"L0"},{"name":"L1"},{"name":"L2"}]'
"$actctl" log checkpoint --sign "$dir/log.pem" >/dev/null || fail "actctl log checkpoint failed"
size6=$(sql "SELECT max(size) FROM act.checkpoints")
sql "SELECT count(*) FROM act.truncate('[{\"stream\":\"late\"}]')" >/dev/null
for sealed in unsealed sealed; do
  [ "$sealed" = sealed ] && sql "SELECT size FROM act.seal()" >/dev/null
  for who in "${auditors[@]}"; do
    auditor "$who"
    check 0 "$who: a record not in the checkpoint ($sealed)" "${cmd[@]}" --vkey "$vkey" --full &&
      has "$who: counted apart ($sealed)" "$out" \
        "$((deleted + 3)) deleted and accounted for by removal records \(3 by records not yet in this checkpoint\)"
  done
done
[ "$(sql "SELECT size FROM act.log_size()")" -gt "$size6" ] && pass || fail "the late record was not sealed"

# Tampering by a superuser, each undone after both auditors saw it. The pins
# hold $size6; the tampered entries are inside it.
position_of() { sql "SELECT act.log_position(id) FROM act.events WHERE stream = '$1' AND version = $2"; }
id_of() { sql "SELECT id FROM act.events WHERE stream = '$1' AND version = $2"; }
hide() {  # hide WHERE: move the events WHERE matches aside
  sql "CREATE TABLE public.hidden_events AS SELECT * FROM act.events WHERE $1; DELETE FROM act.events WHERE $1"
}
unhide() { sql "INSERT INTO act.events SELECT * FROM public.hidden_events; DROP TABLE public.hidden_events"; }
first_record=$(sql "SELECT id FROM act.events WHERE stream = '__truncations__' AND version = 0")
span_record=$(sql "SELECT id FROM act.events WHERE stream = '__truncations__' AND version = 2")
saved_positions=$(sql "SELECT positions FROM act.log_removals WHERE record_id = $span_record")

p=$(position_of victim 1)
i=$(id_of victim 1)
hide "stream = 'victim' AND version >= 1"
for who in "${auditors[@]}"; do
  fails "$who" "events deleted without a record" "entry $p \(event $i\) is missing and no removal record accounts for it" --full
  fails "$who" "events deleted without a record (sampled)" \
    "entry $p \(event $i\) is missing and no removal record accounts for it" --sample 100000
done
unhide

p=$(position_of whole 0)
i=$(id_of whole 0)
hide "stream = 'whole'"
for who in "${auditors[@]}"; do
  fails "$who" "a whole stream gone" "entry $p \(event $i\) is missing and no removal record accounts for it" --full
done
unhide

# The span record lists three positions with gaps between them (span 0, 1, 2).
s0=$(sql "SELECT lower(positions) FROM act.log_removals WHERE record_id = $span_record")
s2=$(sql "SELECT upper(positions) - 1 FROM act.log_removals WHERE record_id = $span_record")
[ "$(sql "SELECT (SELECT removed FROM act.log_removals() WHERE record_id = $span_record)")" = 3 ] && pass ||
  fail "the span record does not list 3 positions"
restore_positions() { sql "UPDATE act.log_removals SET positions = '$saved_positions' WHERE record_id = $span_record"; }

sql "UPDATE act.log_removals SET positions = positions - int8multirange(int8range($s2, $s2 + 1)) WHERE record_id = $span_record"
for who in "${auditors[@]}"; do
  fails "$who" "a position taken out of a record" \
    "removal record event $span_record says it removed 3 entries, but 2 positions are listed for it" --full
done
restore_positions

pv=$(position_of victim 0)
iv=$(id_of victim 0)
sql "UPDATE act.log_removals SET positions = positions + int8multirange(int8range($pv, $pv + 1)) WHERE record_id = $span_record"
for who in "${auditors[@]}"; do
  fails "$who" "a present event's position added to a record" \
    "removal record event $span_record lists entry $pv, but its event $iv is present" --full
done
restore_positions

p=$(sql "SELECT lower(positions) FROM act.log_removals WHERE record_id = $first_record")
i=$(sql "SELECT id FROM act.log_entries($p, $p + 1)")
hide "id = $first_record"
for who in "${auditors[@]}"; do
  fails "$who" "a record's event deleted" \
    "entry $p \(event $i\) is missing, and the removal record that lists it, event $first_record, is missing" --full
done
unhide

# The same count and bounds, another position: a victim's event deleted and
# listed in place of the span's middle entry. Only the digest tells.
s1=$(sql "SELECT p FROM generate_series($s0 + 1, $s2 - 1) p, act.log_entries(p, p + 1) l
          WHERE NOT EXISTS (SELECT FROM act.events e WHERE e.id = l.id)")
hide "id = $iv"
sql "UPDATE act.log_removals SET positions = positions - int8multirange(int8range($s1, $s1 + 1))
       + int8multirange(int8range($pv, $pv + 1)) WHERE record_id = $span_record"
[ "$pv" -gt "$s0" ] && [ "$pv" -lt "$s2" ] && pass || fail "victim 0 ($pv) is not inside the span record ($s0..$s2)"
for who in "${auditors[@]}"; do
  fails "$who" "a record's positions swapped: the digest differs" \
    "removal record event $span_record: the digest of the 3 entries listed for it is [0-9a-f]{64}, its data says" --full
done
restore_positions
unhide

# Restored, both pass again and agree on what they accounted for.
for who in "${auditors[@]}"; do
  auditor "$who"
  check 0 "$who: restored after the tampering" "${cmd[@]}" --vkey "$vkey" --full && grep '^entries:' "$out" >"$dir/entries.$who"
done
cmp -s "$dir/entries.actctl" "$dir/entries.py" && pass || {
  fail "the two auditors report different entries"
  cat "$dir/entries.actctl" "$dir/entries.py" >&2
}

echo "$passed $failed"
