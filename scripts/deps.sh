#!/usr/bin/env bash
# Installs the Debian 12 packages pg_act needs to build and test, only when missing.
set -euo pipefail

packages=(g++ make cmake pkg-config postgresql-15 postgresql-server-dev-15 postgresql-15-pgtap
          libssl-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev libpqxx-dev jq
          libcli11-dev libfmt-dev libcpp-httplib-dev  # actctl (cpp-httplib: actctl witness, log witness, serve)
          openssl  # the openssl command: test/actctl/run-offline.sh makes and checks Ed25519 keys with it
          python3-cryptography  # docs/audit.py, the log auditor in Python (test/actctl/run-audit.sh)
          python3-psycopg2  # the Python worker of docs/workers.md (test/run-workers.sh)
          prometheus-postgres-exporter curl  # test/run-prometheus.sh
          postgresql-15-auto-failover pg-auto-failover-cli  # test/run-failover.sh
          postgresql-15-plproxy  # the router of a partitioned deployment (test/run-partitions.sh)
          chromium chromium-driver python3-selenium  # the inspector's browser tests (test/run-inspector.sh)
          gnuplot-nox  # bench/plot.sh, the sweeps' pictures (make bench-plots)
          clang libclang-rt-14-dev)  # the last two: libFuzzer and the sanitizers for test/fuzz

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
# Node.js and npm for the Act framework's store adapter (adapters/act,
# test/run-act-adapter.sh): Debian's packages when the commands are missing.
# A Node.js installed otherwise (NodeSource's nodejs bundles npm) is left as it is.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "pg_act needs these packages: ${missing[*]}" >&2
  echo "install them as root: apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "installing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# apt's progress and debconf's remarks only when something fails.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
# The exporter's package enables and starts a service on port 9187 of every
# address; the test runs the exporter itself, so a service installed here is
# stopped and disabled (an operator's own configuration is never touched).
if [[ " ${missing[*]} " == *" prometheus-postgres-exporter "* ]]; then
  if [ -d /run/systemd/system ]; then
    systemctl disable --now prometheus-postgres-exporter >/dev/null 2>&1 || true
  else
    invoke-rc.d prometheus-postgres-exporter stop >/dev/null 2>&1 || true
    update-rc.d prometheus-postgres-exporter disable >/dev/null 2>&1 || true
  fi
fi
