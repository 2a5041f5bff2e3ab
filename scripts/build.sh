#!/usr/bin/env bash
# Builds core, the client and the extension with warnings as errors, then
# installs the extension into the local PostgreSQL (root, or sudo when
# available). One line per stage; a failing stage shows its output.
#   scripts/build.sh                     every part, every CMake target (make test)
#   scripts/build.sh [--with=PARTS] TARGET...
#                                        only these CMake targets and what they
#                                        need (make check, make demo)
#   scripts/build.sh --with=PARTS        every target of these parts (make bench, make stress)
# PARTS, comma-separated: tests, stress, benchmarks, examples, the CMake
# options ACT_BUILD_<PART> turned on (a part turned on earlier stays on).
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

parts=tests,stress,benchmarks,examples
case "${1:-}" in
  --with=*)
    parts=${1#--with=}
    shift
    ;;
esac
options=()
for part in ${parts//,/ }; do
  case "$part" in
    tests | stress | benchmarks | examples) options+=("-DACT_BUILD_${part^^}=ON") ;;
    *)
      echo "scripts/build.sh: no part $part (tests, stress, benchmarks, examples)" >&2
      exit 2
      ;;
  esac
done
targets=()
for target in "$@"; do targets+=(--target "$target"); done
build_cmake() {
  cmake -S . -B build -DACT_WERROR=ON "${options[@]}" &&
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
