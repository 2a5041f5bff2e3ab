#!/usr/bin/env bash
# A peer's store with EVENTS events in a new database DB of the cluster the
# PG* environment points at, written through the peer's own API
# (fill-PEER.mjs; Message DB installed first by its package's install.sh).
# npm packages must be installed (npm ci in this directory). Output of the
# steps goes to LOG.
#   test/importers/fill.sh act-pg|message-db|emmett DB EVENTS LOG
set -euo pipefail
peer=$1 db=$2 events=$3 log=$4
cd "$(dirname "$0")"
createdb "$db"
# The source's durability is not what is measured or tested: its writes go
# faster without waiting for a flush each.
psql -qXAt -v ON_ERROR_STOP=1 -d postgres -c "ALTER DATABASE \"$db\" SET synchronous_commit = off" >/dev/null
if [ "$peer" = message-db ]; then
  (cd node_modules/@eventide/message-db/database &&
    DATABASE_NAME=$db CREATE_DATABASE=off PGOPTIONS='-c client_min_messages=warning' ./install.sh) >"$log" 2>&1
fi
# Act reads its package.json from the working directory: this one.
LOG_LEVEL=error node "fill-$peer.mjs" "$db" "$events" >>"$log" 2>&1
