#!/usr/bin/env bash
# act.verify over one stream of 1,000 and one of 100,000 events (the hash
# chain recomputed from the stored rows), one client; events/s.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
bench_database bench_verify
for events in 1000 100000; do
  stream="verify-$events"
  seconds=$(bench_pick $(( events > 1000 ? 20 : 10 )) 3)  # 100k: about a second a call
  bench_verify_setup "$stream" $events
  pgbench_record "sql/verify/${events}_events" verify_stream 1 "$seconds" -D stream="$stream" |
    jq -c --argjson events "$events" '. + {events_per_op: $events, events_per_s: (.ops_per_s * $events)}'
done
