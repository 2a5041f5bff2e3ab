#!/usr/bin/env bash
# Reads, one client: act.query of one stream's 100 events (Message DB's
# get_stream_messages of 100 messages is the comparison), and the next 100
# events of a 100,000-event stream after a random id of it, among 10,000
# short streams (as a subscription to one long stream reads it).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
bench_database bench_read
# The short streams go 500 to a transaction: each commit holds its stream's lock to the end.
{
  echo "SELECT count(*) FROM act.commit('read-100', (SELECT jsonb_agg(jsonb_build_object('name', 'Read',
          'data', jsonb_build_object('index', i, 'data', 'payload-' || i))) FROM generate_series(1, 100) i));"
  for batch in $(seq 0 19); do
    echo "SELECT count(*) FROM generate_series($((batch * 500 + 1)), $((batch * 500 + 500))) s,
            act.commit('short-' || s, '[{\"name\": \"A\"}, {\"name\": \"B\"}]');"
  done
  echo "SELECT count(*) FROM generate_series(1, 100) b, act.commit('long', (SELECT jsonb_agg(jsonb_build_object('name', 'Read',
          'data', jsonb_build_object('index', i))) FROM generate_series(1, 1000) i));"
  echo "ANALYZE;"
} | psql -X -q -v ON_ERROR_STOP=1 >/dev/null
range=$(psql -X -At -F ' ' -c "SELECT min(id), max(id) - 100 FROM act.events WHERE stream = 'long'")
read -r first last <<<"$range"
pgbench_record sql/read/stream_100_events read_stream 1 "$seconds" -D stream=read-100
pgbench_record sql/read/long_stream_next_100 read_stream_after 1 "$seconds" -D stream=long -D first="$first" -D last="$last"
