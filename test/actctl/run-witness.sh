#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# Witnesses (docs/verifiable-log.md, "Witnesses"): two `actctl witness serve`
# on free 127.0.0.1 ports, and `actctl log witness` submitting the log's
# checkpoints to them, against the cluster the PG* environment points at, in
# two databases of their own with one origin and one log key: the log, and a
# fork of it. Both witnesses cosign, pg_act serves the note with both
# cosignatures (checked here with the openssl command, not actctl), a larger
# checkpoint is cosigned from a consistency proof; the fork is refused by
# both (state unchanged, `log witness` exits 1 naming each), as are a smaller
# size, a garbage proof, another old size (409 naming the witness's), an
# unknown log key and an unknown origin. Details go to stderr; the last line
# on stdout is "PASSED FAILED".
#   test/actctl/run-witness.sh WORK [path to actctl, default build/actctl]
set -uo pipefail
# shellcheck source=test/actctl/lib.sh
source "$(dirname "$0")/lib.sh"
needs openssl curl
db=actctl_witness_$$
fork=${db}_fork
suite_directory witness
origin=example.com/witnessed
witnesses=""  # pids of the witnesses still running
cleanup() {
  local pid
  for pid in $witnesses; do kill -TERM "$pid" 2>/dev/null; done
  dropdb --if-exists "$db" >/dev/null 2>&1
  dropdb --if-exists "$fork" >/dev/null 2>&1
}
trap cleanup EXIT
for d in "$db" "$fork"; do
  database_with_pg_act "$d" "ALTER DATABASE $d SET act.log_origin = '$origin'"
done

check_timeout=60  # check: seconds a command may take
same() {  # same DESCRIPTION GOT WANT
  if [ "$2" == "$3" ]; then pass; else fail "$1: got '$2', wanted '$3'"; fi
}

# Keys: the log's, two witnesses', and one no witness knows.
for key in log w1 w2 stranger; do
  openssl genpkey -algorithm ed25519 -out "$dir/$key.pem" 2>/dev/null
  openssl pkey -in "$dir/$key.pem" -pubout -out "$dir/$key.pub" 2>/dev/null
done
vkey=$("$actctl" log vkey --key "$dir/log.pem" --name "$origin")
w1_vkey=$("$actctl" witness vkey --key "$dir/w1.pem" --name w1.example/witness)
w2_vkey=$("$actctl" witness vkey --key "$dir/w2.pem" --name w2.example/witness)
for d in "$db" "$fork"; do
  for k in "$vkey" "$w1_vkey" "$w2_vkey"; do sql "SELECT act.register_log_key('$k')" "$d" >/dev/null; done
done
[[ $w1_vkey == w1.example/witness+*+B* ]] && pass || fail "witness vkey is not of type 0x04: $w1_vkey"

# start_witness NAME: serves on a free port (port 0), bounded in time;
# sets url_NAME from the address it prints.
start_witness() {
  local name=$1 line="" i
  rm -f "$dir/$name.out"  # the address of an earlier run is not this one's
  timeout -k 5 600 "$actctl" witness serve --key "$dir/$name.pem" --name "$name.example/witness" \
    --state "$dir/state-$name" --log "$vkey" --listen 127.0.0.1:0 >"$dir/$name.out" 2>>"$dir/$name.err" &
  witnesses="$witnesses $!"
  eval "pid_$name=$!"
  for i in $(seq 1 100); do
    line=$(grep -m1 '^listening on http://' "$dir/$name.out" 2>/dev/null)
    [ -n "$line" ] && break
    sleep 0.1
  done
  if [ -z "$line" ]; then
    fail "witness $name did not start"
    sed 's/^/  | /' "$dir/$name.err" >&2
    echo "$passed $((failed + 1))"
    exit 0
  fi
  eval "url_$name=${line#listening on }"
}
start_witness w1
start_witness w2
# shellcheck disable=SC2154  # set by start_witness
urls=(--witness "$url_w1" --witness "$url_w2")

commit() {  # commit STREAM EVENTS_JSON [DATABASE]
  sql "SELECT count(*) FROM act.commit('$1', '$2')" "${3:-$db}" >/dev/null
}
sign() {  # sign [DATABASE]: the log's checkpoint, signed outside the database
  "$actctl" --dsn "dbname=${1:-$db}" log checkpoint --sign "$dir/log.pem" >/dev/null || fail "log checkpoint --sign failed"
}
# The newest stored note as it is (psql's newline after it removed).
newest() { printf '%s\n' "$(sql "SELECT note FROM act.checkpoints ORDER BY size DESC LIMIT 1" "${1:-$db}")"; }
state() { cat "$dir"/state-w1/* "$dir"/state-w2/* 2>/dev/null | sha256sum; }

# verify_cosignature NAME NOTE_FILE: the witness's line on the note holds,
# checked with the openssl command: key ID || 8-byte time || the Ed25519
# signature of "cosignature/v1\ntime <T>\n" and the checkpoint text.
verify_cosignature() {
  local name=$1 note=$2 line hex time
  line=$(grep "^— $name.example/witness " "$note" | cut -d' ' -f3)
  [ -n "$line" ] || { fail "no cosignature by $name on the note"; return; }
  printf '%s' "$line" | base64 -d >"$dir/payload"
  hex=$(od -An -tx1 -j4 -N8 "$dir/payload" | tr -d ' \n')
  time=$((16#$hex))
  tail -c 64 "$dir/payload" >"$dir/signature"
  { printf 'cosignature/v1\ntime %s\n' "$time"; sed '/^$/q' "$note" | sed '$d'; } >"$dir/message"
  if openssl pkeyutl -verify -pubin -inkey "$dir/$name.pub" -rawin -in "$dir/message" -sigfile "$dir/signature" >/dev/null 2>&1
  then pass; else fail "openssl does not verify $name's cosignature"; sed 's/^/  | /' "$note" >&2; fi
}

# 1. The log's first checkpoint, cosigned by both.
commit orders-1 '[{"name":"placed"},{"name":"paid"},{"name":"shipped"}]'
sign
check 0 "log witness: both witnesses cosign" "$actctl" --dsn "dbname=$db" log witness "${urls[@]}"
has "log witness names w1" "$out" "^witness $url_w1 cosigned size 3\$"
has "log witness names w2" "$out" "^witness $url_w2 cosigned size 3\$"
newest >"$dir/note3"
verify_cosignature w1 "$dir/note3"
verify_cosignature w2 "$dir/note3"
same "act.checkpoint() serves the cosigned note" "$(sql "SELECT act.checkpoint() = note FROM act.checkpoints WHERE size = 3")" t
check 0 "the note verifies with the log's key and both cosigner keys" \
  "$actctl" log verify-note --vkey "$vkey" --vkey "$w1_vkey" --vkey "$w2_vkey" "$dir/note3"
has "signed by all three" "$out" "signed by $origin\+[0-9a-f]{8}, w1.example/witness\+[0-9a-f]{8}, w2.example/witness\+[0-9a-f]{8}\$"
check 0 "w2's cosignature alone verifies" "$actctl" log verify-note --vkey "$w2_vkey" "$dir/note3"
# A cosignature is not a plain signature: w1's key as a type-0x01 key ignores its line.
w1_plain=$("$actctl" log vkey --key "$dir/w1.pem" --name w1.example/witness)
check 1 "w1's key of type 0x01 finds no signature" "$actctl" log verify-note --vkey "$w1_plain" "$dir/note3"

# 2. More commits: both cosign the larger checkpoint, from the size they hold.
commit orders-2 '[{"name":"placed"},{"name":"paid"}]'
commit orders-1 '[{"name":"delivered"}]'
sign
check 0 "log witness: the larger checkpoint" "$actctl" --dsn "dbname=$db" log witness "${urls[@]}"
has "cosigned size 6" "$out" "^witness $url_w1 cosigned size 6\$"
newest >"$dir/note6"
verify_cosignature w1 "$dir/note6"
verify_cosignature w2 "$dir/note6"
same "w1 remembers size 6" "$(sed -n 2p "$dir"/state-w1/*)" 6
same "the monitoring endpoint serves it" \
  "$(curl -s --max-time 10 "$url_w1/$(printf '%s' "$origin" | sha256sum | cut -d' ' -f1)/checkpoint" | sed -n 2p)" 6

# 3. A fork: the same origin and key, other events. At the witnesses' size
#    (another root) and beyond it (a proof that does not lead to their root).
commit orders-1 '[{"name":"placed"},{"name":"cancelled"},{"name":"refunded"}]' "$fork"
commit orders-9 '[{"name":"placed"},{"name":"paid"},{"name":"shipped"}]' "$fork"
sign "$fork"
before=$(state)
check 1 "log witness: a fork at the same size is refused" "$actctl" --dsn "dbname=$fork" log witness "${urls[@]}"
has "w1 named" "$err" "^witness $url_w1 refused size 6: HTTP 422"
has "w2 named" "$err" "^witness $url_w2 refused size 6: HTTP 422"
commit orders-9 '[{"name":"delivered"}]' "$fork"
sign "$fork"
check 1 "log witness: a longer fork is refused" "$actctl" --dsn "dbname=$fork" log witness "${urls[@]}"
has "w1 named" "$err" "^witness $url_w1 refused size 7: HTTP 422: the checkpoint is not consistent"
has "w2 named" "$err" "^witness $url_w2 refused size 7"
same "the witnesses' state is unchanged by the fork" "$(state)" "$before"
same "the fork's note has no cosignature" "$(newest "$fork" | grep -c '^— w')" 0

# 4. Requests a log should not make, by hand (curl), each refused, state unchanged.
post() {  # post URL BODY_FILE: the HTTP status; the answer in $out, its headers in $err
  curl -s --max-time 10 -o "$out" -D "$err" -w '%{http_code}' -H 'Content-Type: text/plain' \
    --data-binary @"$2" "$1/add-checkpoint"
}
proof() {  # proof OLD NEW: act.prove_consistency's hashes, one base64 line each
  sql "SELECT string_agg(encode(h, 'base64'), E'\n' ORDER BY i) FROM unnest(act.prove_consistency($1, $2)) WITH ORDINALITY AS u(h, i)"
}
commit orders-3 '[{"name":"placed"}]'
sign
newest >"$dir/note7"
{ echo "old 6"; proof 6 7; echo; cat "$dir/note7"; } >"$dir/good"
{ echo "old 6"; proof 6 7 | sed "1s|.*|$(printf garbage | openssl dgst -sha256 -binary | base64)|"; echo
  cat "$dir/note7"; } >"$dir/garbage"
same "a garbage proof: 422" "$(post "$url_w1" "$dir/garbage")" 422
{ echo "old 6"; echo; cat "$dir/note3"; } >"$dir/smaller"
same "a smaller checkpoint: 400" "$(post "$url_w1" "$dir/smaller")" 400
{ echo "old 3"; proof 3 7; echo; cat "$dir/note7"; } >"$dir/stale"
same "an old size that is not the witness's: 409" "$(post "$url_w1" "$dir/stale")" 409
same "the 409 names the witness's size" "$(cat "$out")" 6
has "as text/x.tlog.size" "$err" "^Content-Type: text/x.tlog.size"
text7=$(sed '/^$/q' "$dir/note7")
{ echo "old 6"; proof 6 7; echo; printf '%s\n' "$text7" | "$actctl" log sign --key "$dir/stranger.pem" --name "$origin"; } >"$dir/stranger"
same "a checkpoint signed by an unknown log key: 403" "$(post "$url_w1" "$dir/stranger")" 403
{ echo "old 0"; echo; printf 'example.com/elsewhere\n7\n%s\n' "$(sed -n 3p "$dir/note7")" |
  "$actctl" log sign --key "$dir/log.pem" --name example.com/elsewhere; } >"$dir/elsewhere"
same "an unknown origin: 404" "$(post "$url_w1" "$dir/elsewhere")" 404
same "the witnesses' state is unchanged by refused requests" "$(state)" "$before"
same "the good request: 200" "$(post "$url_w1" "$dir/good")" 200
has "answered with a cosignature line" "$out" "^— w1.example/witness [A-Za-z0-9+/]+=*\$"

# 5. A witness restarted keeps its state: from 0 it answers 409 with size 7.
kill -TERM "$pid_w1" 2>/dev/null
wait "$pid_w1" 2>/dev/null
same "witness w1 stops on SIGTERM with exit 0" "$?" 0
start_witness w1
{ echo "old 0"; echo; cat "$dir/note7"; } >"$dir/from0"
same "restarted, from 0: 409" "$(post "$url_w1" "$dir/from0")" 409
same "naming the size it kept" "$(cat "$out")" 7
# The log catches up: w1 has 7 already (same root, 200), w2 from 6.
check 0 "log witness after the restart" "$actctl" --dsn "dbname=$db" log witness --witness "$url_w1" --witness "$url_w2"
newest >"$dir/note7"
verify_cosignature w1 "$dir/note7"
verify_cosignature w2 "$dir/note7"

# 6. A witness nobody runs, and one whose key pg_act does not know.
check 1 "an unreachable witness" "$actctl" --dsn "dbname=$db" log witness --witness http://127.0.0.1:1 --timeout 2
has "named" "$err" "^witness http://127.0.0.1:1 refused size 7: no answer"
sql "DELETE FROM act.log_keys WHERE name = 'w2.example/witness'" >/dev/null
commit orders-3 '[{"name":"paid"}]'
sign
check 1 "a witness whose key is not registered" "$actctl" --dsn "dbname=$db" log witness --witness "$url_w1" \
  --witness "$url_w2"
has "w1 cosigned" "$out" "^witness $url_w1 cosigned size 8\$"
has "w2 named" "$err" "^witness $url_w2 refused size 8: act.add_checkpoint_signature refused its cosignature: .*w2.example/witness.*not registered"
check 2 "log witness: bad URL" "$actctl" --dsn "dbname=$db" log witness --witness ftp://x

echo "$passed $failed"
