#!/usr/bin/env bash
# Builds core, tests and the extension with warnings as errors, then installs
# the extension into the local PostgreSQL (root, or sudo when available).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
make -s ACT_WERROR=1 cmake-build >/dev/null
make -s ACT_WERROR=1 -j"$jobs" >/dev/null
# install rebuilds the core library: with the same ACT_WERROR, or CMake's
# cache flips and the next build recompiles everything.
if [ "$(id -u)" -eq 0 ]; then
  make -s ACT_WERROR=1 install >/dev/null
elif command -v sudo >/dev/null; then
  sudo make -s ACT_WERROR=1 install >/dev/null
else
  echo "installing the extension needs root (make install)" >&2
  exit 1
fi
