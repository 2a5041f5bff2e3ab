#!/usr/bin/env bash
# A parked lane's claim commits its leases without waiting for their flush,
# every other claim waits (client/src/store/statements.hpp,
# kClaimEventsParked): on a cluster of its own, concurrent mode, whose
# durable commits wait for a synchronous standby that never connects (the
# cluster's default is synchronous_commit = local, so the fixture's own
# commits do not wait). Runs the client suite ParkedClaimDurability there.
# The last line on stdout is "PASSED FAILED".
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/pg_act_parked.XXXXXX)
chmod 755 "$work"
trap 'scripts/cluster.sh stop "$work/pg" >/dev/null 2>&1; rm -rf "$work"' EXIT
if ! scripts/cluster.sh start "$work/pg" "shared_preload_libraries = 'pg_act'" \
     "synchronous_standby_names = 'absent_standby'" "synchronous_commit = local" >&2; then
  echo "0 1"
  exit 0
fi
# shellcheck disable=SC1091
source "$work/pg/env"
timeout 120 test/run-client.sh "$work" --gtest_filter='ParkedClaimDurability.*' || echo "0 1"
