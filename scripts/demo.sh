#!/usr/bin/env bash
# make demo: build and install, start a throwaway cluster, run the demo, stop it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the demo runs: the extension (and the core library it links) and
# the client examples below, and actctl.
scripts/build.sh --with=examples act_core example_ticket example_calculator example_long_lived example_enrolment actctl
echo "starting a throwaway cluster…"
cluster=$(mktemp -d /tmp/pg_act_demo.XXXXXX)
chmod 755 "$cluster"
trap 'scripts/cluster.sh stop "$cluster/pg"; rm -rf "$cluster"' EXIT
scripts/cluster.sh start "$cluster/pg"
# shellcheck disable=SC1091
source "$cluster/pg/env"
createdb demo
echo "running the demo…"
echo
psql -X -q -d demo <examples/sql/demo.sql 2>&1
echo
echo "== the same kind of workflow through the C++ client library (examples/client/ticket.cpp):"
echo "   a reaction assigns new tickets, a projection counts open tickets per assignee in a SQL table"
build/examples/example_ticket "dbname=demo"
echo
echo "== a calculator per stream (examples/client/calculator.cpp): background workers feed a"
echo "   projection that keeps a paper tape per session, one transaction per batch of key presses"
build/examples/example_calculator "dbname=demo"
echo
echo "== an application that lives for years (examples/client/long_lived.cpp): old event shapes"
echo "   read through upcasters, an old snapshot passed over, an idempotent retry, a fresh load,"
echo "   personal data kept apart and forgotten"
build/examples/example_long_lived "dbname=demo"
echo
echo "== one decision over a consistency boundary (examples/client/enrolment.cpp, docs/dcb.md):"
echo "   a course's capacity and a student's five-course limit checked together; eight students race for three seats"
build/examples/example_enrolment "dbname=demo"
echo
echo "== what an operator sees (build/actctl, the operator tool): the store, then who is behind"
build/actctl status --dsn "dbname=demo"
echo
build/actctl lag --dsn "dbname=demo"
echo
echo "== the web inspector (docs/inspector.md): the same store in a browser"
if [ "${DEMO_KEEP:-}" = 1 ]; then
  trap - EXIT  # asked for: the cluster stays for the inspector
  echo "   the cluster stays in $cluster; afterwards: scripts/cluster.sh stop $cluster/pg && rm -rf $cluster"
  echo "   open the address below; Ctrl-C stops the inspector"
  exec build/actctl serve --dsn "dbname=demo"
fi
echo "   DEMO_KEEP=1 make demo keeps the cluster and serves it at http://127.0.0.1:8080/"
