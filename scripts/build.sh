#!/usr/bin/env bash
# Builds core, the client and the extension with warnings as errors, then
# installs the extension into the local PostgreSQL (root, or sudo when
# available). One line per stage; a failing stage shows its output.
#   scripts/build.sh               every CMake target (make test)
#   scripts/build.sh TARGET...     only these CMake targets and what they need (make demo)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# Run from `make -j`, the environment carries make's jobserver: the builds
# below take their own -j and would warn about it.
unset MAKEFLAGS MFLAGS MAKELEVEL
log=$(mktemp)
trap 'rm -f "$log"' EXIT
stage() {  # stage MESSAGE COMMAND...: quiet unless the command fails
  echo "$1"
  shift
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    exit 1
  fi
}

targets=()
for target in "$@"; do targets+=(--target "$target"); done
build_cmake() {
  cmake -S . -B build -DACT_WERROR=ON &&
    cmake --build build -j"$jobs" "${targets[@]}"
}
# The extension links core; `make` rebuilds it as the Makefile's `core`
# target (with the same ACT_WERROR, or CMake's cache flips and the next
# build recompiles everything), which finds it up to date.
stage "building core and client…" build_cmake
stage "building the extension…" make -s ACT_WERROR=1 -j"$jobs"
if [ "$(id -u)" -eq 0 ]; then
  stage "installing the extension…" make -s ACT_WERROR=1 install
elif command -v sudo >/dev/null; then
  stage "installing the extension (sudo)…" sudo make -s ACT_WERROR=1 install
else
  echo "installing the extension needs root (make install)" >&2
  exit 1
fi
