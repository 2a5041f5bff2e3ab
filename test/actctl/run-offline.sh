#!/usr/bin/env bash
# actctl's offline proof and signed-note checks against known answers and
# generated proofs (test/actctl/proof_probes.py): valid
# proofs and notes exit 0, mutated ones 1, unusable arguments 2; each with its
# one line on the right stream. Keys are made with the openssl command, which
# also checks what actctl signs. No database. Failures are described on stderr; the last line on
# stdout is "N passed, M failed", and the exit status is non-zero on failure.
#   test/actctl/run-offline.sh [path to actctl, default build/actctl]
set -uo pipefail
actctl=${1:-}
[ -n "$actctl" ] && [[ $actctl == */* ]] && actctl=$(realpath -m "$actctl")  # before the cd below
cd "$(dirname "$0")/../.." || { echo "0 passed, 1 failed"; exit 1; }
actctl=${actctl:-build/actctl}
if [ ! -x "$actctl" ]; then
  echo "no actctl at $actctl (build it: cmake --build build --target actctl)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

# The 8-entry reference tree of RFC 6962's test suites (entries "", 00, 10,
# 2021, 3031, 40414243, 5051525354555657, 606162636465666768696a6b6c6d6e6f):
# leaf hashes, roots by size, and proofs (the roots and several proofs are the
# published vectors that test/core/merkle_test.cpp checks too).
leaf=(6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d
      96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7
      0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7
      07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7
      bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b
      4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658
      b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f
      46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1)
root=(e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
      6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d
      fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125
      aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77
      d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7
      4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4
      76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef
      ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c
      5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328)
n01=fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125   # node over entries 0..1
n23=5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e   # 2..3
n45=0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a   # 4..5
n67=ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0   # 6..7
n03=${root[4]}                                                          # 0..3
n47=6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4   # 4..7
n46=837dbb152e9b079010717e84e865da4ebc0fa198a806d59d31bf15accef22d0e   # 4..6 (right edge of 7)

declare -A incl=(  # "index size" -> path
  ["0 8"]="${leaf[1]},$n23,$n47"
  ["5 8"]="${leaf[4]},$n67,$n03"
  ["7 8"]="${leaf[6]},$n45,$n03"
  ["2 3"]="$n01"
  ["1 5"]="${leaf[0]},$n23,${leaf[4]}"
  ["6 7"]="$n45,$n03"
  ["3 4"]="${leaf[2]},$n01"
  ["0 1"]=""
)
declare -A cons=(  # "old new" -> path
  ["1 8"]="${leaf[1]},$n23,$n47"
  ["6 8"]="$n45,$n67,$n03"
  ["2 5"]="$n23,${leaf[4]}"
  ["3 7"]="${leaf[2]},${leaf[3]},$n01,$n46"
  ["4 8"]="$n47"
  ["1 2"]="${leaf[1]}"
  ["7 8"]="${leaf[6]},${leaf[7]},$n45,$n03"
)

passed=0
failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run WANT DESCRIPTION ARGS...: actctl exits WANT with one line on stdout (0)
# or on stderr (1, 2) and nothing on the other stream.
run() {
  local want=$1 what=$2
  shift 2
  "$actctl" "$@" >"$work/out" 2>"$work/err"
  local code=$? problem=""
  local out_lines err_lines
  out_lines=$(wc -l <"$work/out")
  err_lines=$(wc -l <"$work/err")
  if [ "$code" -ne "$want" ]; then
    problem="exit $code, expected $want"
  elif [ "$want" -eq 0 ] && { [ "$out_lines" -ne 1 ] || [ -s "$work/err" ]; }; then
    problem="expected one line on stdout and nothing on stderr"
  elif [ "$want" -ne 0 ] && { [ "$err_lines" -ne 1 ] || [ -s "$work/out" ]; }; then
    problem="expected one line on stderr and nothing on stdout"
  fi
  if [ -z "$problem" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    {
      echo "--- FAILED: $what: $problem"
      echo "    actctl $*"
      sed 's/^/    stdout: /' "$work/out"
      sed 's/^/    stderr: /' "$work/err"
    } >&2
  fi
}

# help WHAT ARGS...: exit 0 with a usage text on stdout.
help() {
  local what=$1
  shift
  if "$actctl" "$@" >"$work/out" 2>"$work/err" && grep -q '^Usage: actctl' "$work/out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "--- FAILED: $what: no usage text, or a non-zero exit" >&2
  fi
}

flip() { local h=$1; [ "${h:0:1}" = 0 ] && echo "1${h:1}" || echo "0${h:1}"; }  # another hash
element() { local IFS=,; local -a parts; read -ra parts <<<"$1"; echo "${parts[$2]}"; }
count() { local IFS=,; local -a parts; read -ra parts <<<"$1"; echo "${#parts[@]}"; }
replace() {  # replace PATH K HASH
  local IFS=,
  local -a parts
  read -ra parts <<<"$1"
  parts[$2]=$3
  echo "${parts[*]}"
}
upper() { tr 'a-f' 'A-F' <<<"$1"; }

inclusion() {  # inclusion WANT WHAT LEAF INDEX SIZE ROOT PATH
  run "$1" "$2" log verify-inclusion --leaf-hash "$3" --index "$4" --size "$5" --root "$6" --path "$7"
}
consistency() {  # consistency WANT WHAT OLD_SIZE OLD_ROOT NEW_SIZE NEW_ROOT PATH
  run "$1" "$2" log verify-consistency --old-size "$3" --old-root "$4" --new-size "$5" --new-root "$6" --path "$7"
}

# ---- Valid proofs hold (0) -------------------------------------------------------
for key in "${!incl[@]}"; do
  read -r i n <<<"$key"
  inclusion 0 "inclusion of $i in $n" "${leaf[$i]}" "$i" "$n" "${root[$n]}" "${incl[$key]}"
done
for key in "${!cons[@]}"; do
  read -r m n <<<"$key"
  consistency 0 "consistency $m -> $n" "$m" "${root[$m]}" "$n" "${root[$n]}" "${cons[$key]}"
done
inclusion 0 "upper-case hex" "$(upper "${leaf[5]}")" 5 8 "$(upper "${root[8]}")" "$(upper "${incl[5 8]}")"
consistency 0 "upper-case hex" 3 "$(upper "${root[3]}")" 7 "$(upper "${root[7]}")" "$(upper "${cons[3 7]}")"
consistency 0 "from the empty tree" 0 "${root[0]}" 8 "${root[8]}" ''
consistency 0 "the same size" 8 "${root[8]}" 8 "${root[8]}" ''

# ---- Mutated proofs do not hold (1) -------------------------------------------------
for key in "5 8" "1 5" "6 7"; do
  read -r i n <<<"$key"
  path=${incl[$key]}
  last=$(($(count "$path") - 1))
  for k in $(seq 0 "$last"); do
    inclusion 1 "inclusion $i in $n, element $k changed" "${leaf[$i]}" "$i" "$n" "${root[$n]}" \
      "$(replace "$path" "$k" "$(flip "$(element "$path" "$k")")")"
  done
  inclusion 1 "inclusion $i in $n, another entry" "${leaf[0]}" "$i" "$n" "${root[$n]}" "$path"
  inclusion 1 "inclusion $i in $n, another root" "${leaf[$i]}" "$i" "$n" "$(flip "${root[$n]}")" "$path"
  inclusion 1 "inclusion $i in $n, truncated path" "${leaf[$i]}" "$i" "$n" "${root[$n]}" "${path%,*}"
  inclusion 1 "inclusion $i in $n, extended path" "${leaf[$i]}" "$i" "$n" "${root[$n]}" "$path,${leaf[0]}"
  inclusion 1 "inclusion $i in $n, path with a hash in front" "${leaf[$i]}" "$i" "$n" "${root[$n]}" \
    "${leaf[0]},$path"
  inclusion 1 "inclusion $i in $n, index - 1" "${leaf[$i]}" $((i - 1)) "$n" "${root[$n]}" "$path"
  if [ $((i + 1)) -lt "$n" ]; then
    inclusion 1 "inclusion $i in $n, index + 1" "${leaf[$i]}" $((i + 1)) "$n" "${root[$n]}" "$path"
  fi
  # Another size is caught through its root: the path alone binds the size
  # only as far as it changes the path's shape (the checkpoint binds the rest).
  if [ "$n" -lt 8 ]; then
    inclusion 1 "inclusion $i in $n, size + 1 with its root" "${leaf[$i]}" "$i" $((n + 1)) "${root[$((n + 1))]}" "$path"
  fi
  if [ $((n - 1)) -gt "$i" ]; then
    inclusion 1 "inclusion $i in $n, size - 1 with its root" "${leaf[$i]}" "$i" $((n - 1)) "${root[$((n - 1))]}" \
      "$path"
  fi
done
inclusion 1 "inclusion 5 in 8, a size that changes the path's shape" "${leaf[5]}" 5 6 "${root[8]}" "${incl[5 8]}"
inclusion 1 "one-entry tree, another root" "${leaf[0]}" 0 1 "${root[2]}" ''
inclusion 1 "one-entry tree, a path" "${leaf[0]}" 0 1 "${root[1]}" "${leaf[1]}"
# Its proof is empty: a garbage hash before or after it, the root itself, or
# two hashes, are paths of the wrong length.
garbage=$(printf 'garbage' | sha256sum | cut -c1-64)
inclusion 1 "one-entry tree, garbage before the empty path" "${leaf[0]}" 0 1 "${root[1]}" "$garbage"
inclusion 1 "one-entry tree, garbage after the empty path" "${leaf[0]}" 0 1 "${root[1]}" "$(flip "$garbage")"
inclusion 1 "one-entry tree, its root as path" "${leaf[0]}" 0 1 "${root[1]}" "${root[1]}"
inclusion 1 "one-entry tree, two hashes" "${leaf[0]}" 0 1 "${root[1]}" "$garbage,$garbage"
consistency 1 "one-entry tree to itself, a hash" 1 "${root[1]}" 1 "${root[1]}" "$garbage"
consistency 1 "the empty tree to one entry, a hash" 0 "${root[0]}" 1 "${root[1]}" "${root[1]}"

for key in "3 7" "6 8" "4 8"; do
  read -r m n <<<"$key"
  path=${cons[$key]}
  last=$(($(count "$path") - 1))
  for k in $(seq 0 "$last"); do
    consistency 1 "consistency $m -> $n, element $k changed" "$m" "${root[$m]}" "$n" "${root[$n]}" \
      "$(replace "$path" "$k" "$(flip "$(element "$path" "$k")")")"
  done
  consistency 1 "consistency $m -> $n, another old root" "$m" "$(flip "${root[$m]}")" "$n" "${root[$n]}" "$path"
  consistency 1 "consistency $m -> $n, another new root" "$m" "${root[$m]}" "$n" "$(flip "${root[$n]}")" "$path"
  consistency 1 "consistency $m -> $n, swapped roots" "$m" "${root[$n]}" "$n" "${root[$m]}" "$path"
  consistency 1 "consistency $m -> $n, extended path" "$m" "${root[$m]}" "$n" "${root[$n]}" "$path,${leaf[0]}"
  consistency 1 "consistency $m -> $n, old size - 1 with its root" $((m - 1)) "${root[$((m - 1))]}" "$n" \
    "${root[$n]}" "$path"
  consistency 1 "consistency $m -> $n, new size - 1 with its root" "$m" "${root[$m]}" $((n - 1)) \
    "${root[$((n - 1))]}" "$path"
  if [ "$(count "$path")" -gt 1 ]; then
    consistency 1 "consistency $m -> $n, truncated path" "$m" "${root[$m]}" "$n" "${root[$n]}" "${path%,*}"
  fi
done
consistency 1 "consistency 3 -> 7, empty path" 3 "${root[3]}" 7 "${root[7]}" ''
consistency 1 "from the empty tree, another old root" 0 "${root[1]}" 8 "${root[8]}" ''
consistency 1 "from the empty tree, a path" 0 "${root[0]}" 8 "${root[8]}" "${leaf[0]}"
consistency 1 "the same size, different roots" 8 "${root[8]}" 8 "${root[7]}" ''

# ---- Generated proofs and mutations ------------------------------------------------
# Every proof of the trees of up to 5 entries and every mutation of it
# (test/actctl/proof_probes.py computes both from RFC 9162's definitions):
# the proof holds (0), a mutation does not (1), a statement beyond the tree is
# unusable (2).
if ! python3 test/actctl/proof_probes.py 5 >"$work/probes"; then
  failed=$((failed + 1))
  echo "--- FAILED: test/actctl/proof_probes.py produced no cases" >&2
fi
declare -A exit_of=([holds]=0 [fails]=1 [unusable]=2)
while IFS='|' read -r kind verdict what a b c d path; do
  [ "$path" = - ] && path=''
  if [ "$kind" = inclusion ]; then
    inclusion "${exit_of[$verdict]}" "generated: $what" "$a" "$b" "$c" "$d" "$path"
  else
    consistency "${exit_of[$verdict]}" "generated: $what" "$a" "$b" "$c" "$d" "$path"
  fi
done <"$work/probes"

# ---- Unusable arguments (2) ---------------------------------------------------------
good_incl=(--leaf-hash "${leaf[5]}" --index 5 --size 8 --root "${root[8]}" --path "${incl[5 8]}")
inclusion 2 "a non-hex leaf hash" "g${leaf[5]:1}" 5 8 "${root[8]}" "${incl[5 8]}"
inclusion 2 "a 63-digit leaf hash" "${leaf[5]:1}" 5 8 "${root[8]}" "${incl[5 8]}"
inclusion 2 "a 65-digit root" "${leaf[5]}" 5 8 "${root[8]}0" "${incl[5 8]}"
inclusion 2 "an empty leaf hash" "" 5 8 "${root[8]}" "${incl[5 8]}"
inclusion 2 "a bad path element" "${leaf[5]}" 5 8 "${root[8]}" "${incl[5 8]%,*},xyz"
inclusion 2 "a trailing comma in the path" "${leaf[5]}" 5 8 "${root[8]}" "${incl[5 8]},"
inclusion 2 "an empty path element" "${leaf[5]}" 5 8 "${root[8]}" "${leaf[4]},,$n03"
inclusion 2 "a space in the path" "${leaf[5]}" 5 8 "${root[8]}" "${leaf[4]}, $n67,$n03"
inclusion 2 "index = size" "${leaf[5]}" 8 8 "${root[8]}" "${incl[5 8]}"
inclusion 2 "index > size" "${leaf[5]}" 9 8 "${root[8]}" "${incl[5 8]}"
inclusion 2 "size 0" "${leaf[0]}" 0 0 "${root[0]}" ''
inclusion 2 "a negative index" "${leaf[5]}" -1 8 "${root[8]}" "${incl[5 8]}"
inclusion 2 "a non-numeric size" "${leaf[5]}" 5 eight "${root[8]}" "${incl[5 8]}"
inclusion 2 "a size beyond 64 bits" "${leaf[5]}" 5 18446744073709551616 "${root[8]}" "${incl[5 8]}"
inclusion 2 "a size with a sign" "${leaf[5]}" 5 +8 "${root[8]}" "${incl[5 8]}"
run 2 "no --path" log verify-inclusion --leaf-hash "${leaf[5]}" --index 5 --size 8 --root "${root[8]}"
run 2 "no --root" log verify-inclusion --leaf-hash "${leaf[5]}" --index 5 --size 8 --path "${incl[5 8]}"
run 2 "an unknown option" log verify-inclusion "${good_incl[@]}" --verbose
run 2 "a stray argument" log verify-inclusion "${good_incl[@]}" extra
consistency 2 "old size > new size" 8 "${root[8]}" 7 "${root[7]}" ''
consistency 2 "a non-hex old root" 3 "${root[3]:0:63}z" 7 "${root[7]}" "${cons[3 7]}"
consistency 2 "a short new root" 3 "${root[3]}" 7 "${root[7]:2}" "${cons[3 7]}"
consistency 2 "a negative old size" -3 "${root[3]}" 7 "${root[7]}" "${cons[3 7]}"
run 2 "no --new-size" log verify-consistency --old-size 3 --old-root "${root[3]}" --new-root "${root[7]}" \
  --path "${cons[3 7]}"
run 2 "no command"
run 2 "no log command" log
run 2 "an unknown command" log verify-everything

# ---- Signed notes (C2SP signed-note, Ed25519) ---------------------------------------
# same WHAT FILE FILE: the two files hold the same bytes.
same() {
  if cmp -s "$2" "$3"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    {
      echo "--- FAILED: $1: the output is not what was expected"
      diff "$2" "$3" | sed 's/^/    /'
    } >&2
  fi
}
# holds WHAT COMMAND...: the command succeeds (a check made with other tools).
holds() {
  local what=$1
  shift
  if "$@" >"$work/holds" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "--- FAILED: $what" >&2
    sed 's/^/    /' "$work/holds" >&2
  fi
}

if ! command -v openssl >/dev/null; then
  echo "--- FAILED: no openssl command to make keys with (scripts/deps.sh installs it)" >&2
  failed=$((failed + 1))
else
  spec_vkey=example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k
  spec_sig=Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=
  printf 'This is an example message.\n\n\xe2\x80\x94 example.com/foo %s\n' "$spec_sig" >"$work/spec.note"
  printf 'This is an example message.\n' >"$work/spec.text"
  for k in log witness other; do openssl genpkey -algorithm ed25519 -out "$work/$k.pem" 2>/dev/null; done
  openssl genpkey -algorithm rsa -pkeyopt rsa_keygen_bits:2048 -out "$work/rsa.pem" 2>/dev/null
  openssl genpkey -algorithm x25519 -out "$work/x25519.pem" 2>/dev/null
  openssl genpkey -algorithm ed25519 -aes256 -pass pass:secret -out "$work/encrypted.pem" 2>/dev/null
  openssl pkey -in "$work/log.pem" -pubout -out "$work/log.pub.pem"
  origin=pg_act/orders
  printf '%s\n7\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n' "$origin" >"$work/body"

  # The verifier key, computed here from the public key: name+keyid+base64(0x01 || key).
  openssl pkey -in "$work/log.pem" -pubout -outform DER | tail -c 32 >"$work/log.raw"
  key_id=$({ printf '%s\n\001' "$origin"; cat "$work/log.raw"; } | sha256sum | cut -c1-8)
  printf '%s+%s+%s\n' "$origin" "$key_id" "$({ printf '\001'; cat "$work/log.raw"; } | base64 -w0)" >"$work/vkey.want"
  run 0 "vkey of a fresh key" log vkey --key "$work/log.pem" --name "$origin"
  same "vkey of a fresh key is name+keyid+base64(0x01 || key)" "$work/vkey.want" "$work/out"
  vkey=$(cat "$work/vkey.want")
  witness_vkey=$("$actctl" log vkey --key "$work/witness.pem" --name witness.example/w1)
  other_vkey=$("$actctl" log vkey --key "$work/other.pem" --name "$origin")

  # The C2SP example verifies; any change to it does not.
  run 0 "the C2SP example" log verify-note --vkey "$spec_vkey" "$work/spec.note"
  run 0 "the C2SP example from standard input" log verify-note --vkey "$spec_vkey" - <"$work/spec.note"
  run 0 "the C2SP example and another key" log verify-note --vkey "$other_vkey" --vkey "$spec_vkey" "$work/spec.note"
  "$actctl" log verify-note --vkey "$spec_vkey" --text "$work/spec.note" >"$work/text.out" 2>&1
  same "verify-note --text prints the note's text" "$work/spec.text" "$work/text.out"
  sed 's/example message/example massage/' "$work/spec.note" >"$work/changed.note"
  run 1 "the C2SP example, a text byte changed" log verify-note --vkey "$spec_vkey" "$work/changed.note"
  sed 's/Uw2QOkn8/Uw2QOkn9/' "$work/spec.note" >"$work/changed.note"
  run 1 "the C2SP example, a signature byte changed" log verify-note --vkey "$spec_vkey" "$work/changed.note"
  sed 's/Uw2QOkn8/Uw2QOkm8/' "$work/spec.note" >"$work/changed.note"
  run 1 "the C2SP example, its key ID changed (another key)" log verify-note --vkey "$spec_vkey" "$work/changed.note"
  run 1 "the C2SP example, only another key given" log verify-note --vkey "$other_vkey" "$work/spec.note"

  # sign: the text, a blank line, the signature line; openssl checks the signature.
  run_sign() { "$actctl" log sign "$@" >"$work/out" 2>"$work/err"; }
  holds "sign a checkpoint body" run_sign --key "$work/log.pem" --name "$origin" "$work/body"
  cp "$work/out" "$work/signed.note"
  { cat "$work/body"; printf '\n'; } >"$work/signed.want"
  head -n 4 "$work/signed.note" >"$work/signed.head"
  same "a signed note starts with the body and a blank line" "$work/signed.want" "$work/signed.head"
  holds "a signed note has one signature line after them" \
    test "$(wc -l <"$work/signed.note")" -eq 5 -a "$(tail -n 1 "$work/signed.note" | cut -d' ' -f2)" = "$origin"
  tail -n 1 "$work/signed.note" | cut -d' ' -f3 | base64 -d >"$work/sig.raw"
  holds "the signature line starts with the key ID" test "$(head -c 4 "$work/sig.raw" | od -An -tx1 | tr -d ' \n')" = "$key_id"
  tail -c 64 "$work/sig.raw" >"$work/sig.bin"
  holds "openssl verifies the Ed25519 signature over the body" \
    openssl pkeyutl -verify -pubin -inkey "$work/log.pub.pem" -rawin -in "$work/body" -sigfile "$work/sig.bin"
  run_sign --key "$work/log.pem" --name "$origin" - <"$work/body"
  same "sign from standard input" "$work/signed.note" "$work/out"
  run 0 "a signed note verifies" log verify-note --vkey "$vkey" "$work/signed.note"
  run 1 "a signed note, another key of the same name" log verify-note --vkey "$other_vkey" "$work/signed.note"
  sed 's/^7$/8/' "$work/signed.note" >"$work/changed.note"
  run 1 "a signed note, its size changed" log verify-note --vkey "$vkey" "$work/changed.note"

  # A second signature (a witness): both verify, each alone too; a broken one rejects the note.
  holds "cosign a signed note" run_sign --key "$work/witness.pem" --name witness.example/w1 "$work/signed.note"
  cp "$work/out" "$work/cosigned.note"
  holds "a cosigned note keeps the first signature line" test "$(sed -n 5p "$work/cosigned.note")" = \
    "$(sed -n 5p "$work/signed.note")"
  run 0 "a cosigned note, both keys" log verify-note --vkey "$vkey" --vkey "$witness_vkey" "$work/cosigned.note"
  run 0 "a cosigned note, the witness alone" log verify-note --vkey "$witness_vkey" "$work/cosigned.note"
  run_sign --key "$work/witness.pem" --name witness.example/w1 "$work/changed.note"
  { head -n 5 "$work/signed.note"; tail -n 1 "$work/out"; } >"$work/mixed.note"  # the witness signed another size
  run 0 "a bad signature by a key not given is ignored" log verify-note --vkey "$vkey" "$work/mixed.note"
  run 1 "a bad signature by a given key rejects the note" log verify-note --vkey "$vkey" --vkey "$witness_vkey" \
    "$work/mixed.note"
  run 2 "sign a note this key has signed" log sign --key "$work/log.pem" --name "$origin" "$work/signed.note"

  # Unusable keys, names, verifier keys and notes (2).
  run 2 "vkey without --name" log vkey --key "$work/log.pem"
  run 2 "vkey without --key" log vkey --name "$origin"
  run 2 "vkey, a missing key file" log vkey --key "$work/missing.pem" --name "$origin"
  run 2 "vkey, an RSA key" log vkey --key "$work/rsa.pem" --name "$origin"
  run 2 "vkey, an X25519 key" log vkey --key "$work/x25519.pem" --name "$origin"
  run 2 "vkey, a public key" log vkey --key "$work/log.pub.pem" --name "$origin"
  run 2 "vkey, an encrypted key" log vkey --key "$work/encrypted.pem" --name "$origin"
  run 2 "vkey, not a key" log vkey --key "$work/body" --name "$origin"
  run 2 "vkey, a name with a space" log vkey --key "$work/log.pem" --name "pg_act orders"
  run 2 "vkey, a name with a plus" log vkey --key "$work/log.pem" --name "pg_act+orders"
  run 2 "vkey, an empty name" log vkey --key "$work/log.pem" --name ""
  run 2 "sign, an RSA key" log sign --key "$work/rsa.pem" --name "$origin" "$work/body"
  run 2 "sign, a bad name" log sign --key "$work/log.pem" --name "a b" "$work/body"
  run 2 "sign, a missing input" log sign --key "$work/log.pem" --name "$origin" "$work/missing"
  printf 'no newline' >"$work/bad.text"
  run 2 "sign, a text without its last newline" log sign --key "$work/log.pem" --name "$origin" "$work/bad.text"
  printf 'a\ttab\n' >"$work/bad.text"
  run 2 "sign, a text with a tab" log sign --key "$work/log.pem" --name "$origin" "$work/bad.text"
  run 2 "sign, an empty input" log sign --key "$work/log.pem" --name "$origin" - </dev/null
  run 2 "verify-note without --vkey" log verify-note "$work/spec.note"
  run 2 "verify-note, a vkey without its key" log verify-note --vkey example.com/foo+530d903a "$work/spec.note"
  run 2 "verify-note, a vkey with a wrong key ID" log verify-note \
    --vkey example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k "$work/spec.note"
  run 2 "verify-note, a vkey with an upper-case key ID" log verify-note \
    --vkey example.com/foo+530D903A+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k "$work/spec.note"
  run 2 "verify-note, a vkey of another type" log verify-note \
    --vkey example.com/foo+530d903a+AukyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k "$work/spec.note"
  run 2 "verify-note, a short vkey" log verify-note \
    --vkey example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U0= "$work/spec.note"
  run 2 "verify-note, a note without signatures" log verify-note --vkey "$spec_vkey" "$work/spec.text"
  printf 'This is an example message.\n\n- example.com/foo %s\n' "$spec_sig" >"$work/bad.note"
  run 2 "verify-note, a hyphen for the em dash" log verify-note --vkey "$spec_vkey" "$work/bad.note"
  printf 'This is an example message.\n\n\xe2\x80\x94 example.com/foo %s\n' "${spec_sig%=}" >"$work/bad.note"
  run 2 "verify-note, a signature without its padding" log verify-note --vkey "$spec_vkey" "$work/bad.note"
  printf 'This is an example message.\n\n\xe2\x80\x94 example.com/foo %s' "$spec_sig" >"$work/bad.note"
  run 2 "verify-note, no last newline" log verify-note --vkey "$spec_vkey" "$work/bad.note"
  printf 'This is an example message.\r\n\n\xe2\x80\x94 example.com/foo %s\n' "$spec_sig" >"$work/bad.note"
  run 2 "verify-note, a carriage return" log verify-note --vkey "$spec_vkey" "$work/bad.note"
  { cat "$work/spec.note"; tail -n 1 "$work/spec.note"; } >"$work/bad.note"
  run 2 "verify-note, a given key signing twice" log verify-note --vkey "$spec_vkey" "$work/bad.note"
  run 2 "verify-note, a missing input" log verify-note --vkey "$spec_vkey" "$work/missing"
  run 2 "verify-note, an empty input" log verify-note --vkey "$spec_vkey" - </dev/null

  # The database commands refuse what they can judge before connecting (2).
  run 2 "audit, no pin and no --init" log audit --pin "$work/missing.pin" --vkey "$vkey"
  run 2 "audit, --full and --sample" log audit --pin "$work/signed.note" --vkey "$vkey" --full --sample 3
  run 2 "audit, --sample 0" log audit --pin "$work/signed.note" --vkey "$vkey" --sample 0
  run 2 "audit, a bad vkey" log audit --pin "$work/signed.note" --vkey example.com/foo+530d903a --init
  run 2 "audit, a pin another key signed" log audit --pin "$work/signed.note" --vkey "$other_vkey"
  run 2 "audit, a pin that is no checkpoint" log audit --pin "$work/spec.note" --vkey "$spec_vkey"
  run 2 "audit, the pin on standard input" log audit --pin - --vkey "$vkey"
  run 2 "checkpoint, an RSA key" log checkpoint --sign "$work/rsa.pem"
  run 2 "checkpoint, a missing key" log checkpoint --sign "$work/missing.pem"
  run 2 "export, no directory" log export
fi

# ---- Help at every level (0) ------------------------------------------------------
help "actctl --help" --help
help "actctl log --help" log --help
help "actctl log verify-inclusion --help" log verify-inclusion --help
help "actctl log verify-consistency --help" log verify-consistency --help
help "actctl log vkey --help" log vkey --help
help "actctl log sign --help" log sign --help
help "actctl log verify-note --help" log verify-note --help
help "actctl log checkpoint --help" log checkpoint --help
help "actctl log audit --help" log audit --help
help "actctl log export --help" log export --help

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
