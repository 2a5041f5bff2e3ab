#!/usr/bin/env bash
# make test: build, install, start a throwaway cluster, run every suite, stop it.
# Ends with one line "N passed, M failed" summing all suites.
set -uo pipefail
cd "$(dirname "$0")/.."

scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

# shellcheck source=scripts/lib/suites.sh
source scripts/lib/suites.sh

# 1. GoogleTest suites (no database).
read -r p f < <(gtest_suites)
count gtest "$p" "$f"

# actctl's offline proof checks (no database).
read -r p _ f _ < <(test/actctl/run-offline.sh)
count actctl "${p:-0}" "${f:-1}"

# The pictures of make bench-plots, drawn from a checked-in sample run.
read -r p f < <(test/run-bench-plots.sh)
count bench-plots "${p:-0}" "${f:-1}"

# 2. libFuzzer targets of core's parsers and encoders, a few seconds each.
read -r p f < <(test/run-fuzz.sh 3)
count fuzz "$p" "$f"

# 3. Database suites against a throwaway cluster, in both modes: fenced (the
#    default) and concurrent (pg_act preloaded).
database_suites() {  # database_suites MODE [postgresql.conf lines...]
  local mode=$1
  local p f
  cluster_start "$@" || return
  read -r p f < <(test/run-pgtap.sh "$cluster")
  count "pgtap/$mode" "$p" "$f"
  read -r p f < <(test/run-isolation.sh "$cluster")
  count "isolation/$mode" "$p" "$f"
  read -r p f < <(test/run-doc-examples.sh "$cluster" docs/sql.md)
  count "docs/$mode" "$p" "$f"
  read -r p f < <(test/run-doc-examples.sh "$cluster" docs/dcb.md)
  count "dcb-docs/$mode" "$p" "$f"
  read -r p f < <(test/run-workers.sh "$cluster")
  count "workers/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/run-reference.sh "$cluster")
  count "reference/$mode" "$p" "$f"
  read -r p f < <(test/actctl/run-ops.sh "$cluster")
  count "actctl-ops/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/actctl/run-audit.sh "$cluster")
  count "audit/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/actctl/run-health.sh "$cluster")
  count "actctl-health/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/actctl/run-export.sh "$cluster")
  count "export/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/actctl/run-witness.sh "$cluster")
  count "witness/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/run-inspector.sh "$cluster")
  count "inspector/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/run-prometheus.sh "$cluster")
  count "prometheus/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/run-seal-worker.sh)
  count "seal-worker/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/run-client.sh "$cluster")
  count "client/$mode" "$p" "$f"
  read -r p f < <(test/run-act-adapter.sh "$cluster")
  count "act-adapter/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/run-importers.sh "$cluster")
  count "importers/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/run-gap-safety.sh 3)
  count "gap-safety/$mode" "$p" "$f"
  read -r p f < <(test/run-dcb-race.sh 1000 16)
  count "dcb-race/$mode" "${p:-0}" "${f:-1}"
  read -r p f < <(test/run-stress.sh "$cluster")
  count "stress/$mode" "$p" "$f"
  read -r p f < <(test/run-dump-restore.sh "$cluster")
  count "restore/$mode" "$p" "$f"
  read -r p f < <(test/run-upgrade.sh "$cluster")
  count "upgrade/$mode" "$p" "$f"
  cluster_stop "$mode"
}

database_suites fenced
database_suites concurrent "shared_preload_libraries = 'pg_act'"

# 3. A backend killed mid-commit, on a cluster of its own (it crashes on purpose).
read -r p f < <(test/run-horizon-crash.sh)
count "horizon-crash" "$p" "$f"
# A parked lane's claim does not wait for its leases' flush: on a cluster of
# its own whose durable commits wait for a standby that never comes.
read -r p f < <(test/run-parked-claim.sh)
count "parked-claim" "$p" "$f"

# 4. Reading on a hot standby: a primary and a streaming standby per mode.
for mode in fenced concurrent; do
  read -r p f < <(test/run-standby.sh "$mode" 3)
  count "standby/$mode" "$p" "$f"
done

# 5. Failover: the primary of a pg_auto_failover group killed twice under a commit storm.
read -r p f < <(test/run-failover.sh 2 4)
count "failover" "$p" "$f"
# What replication must be for a failover to lose nothing: asynchronous
# loses acknowledged commits, synchronous none.
read -r p f < <(test/run-replication-loss.sh)
count "replication-loss" "$p" "$f"

# 6. A partitioned deployment: partition databases on two nodes behind a
#    PL/Proxy router (docs/scale-out.md).
read -r _ p _ f _ < <(test/run-partitions.sh)
count "partitions" "${p:-0}" "${f:-1}"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
