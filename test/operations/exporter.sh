# Sourced by test/run-prometheus.sh and test/run-partitions.sh:
# prometheus-postgres-exporter run for a test, with only the queries of a
# file. Set `suite` before sourcing; call stop_exporter on exit.
exporter_pid=""
exporter_port=""
# start_exporter EXPORTER DSN QUERIES LOG: starts it on a free port of
# 127.0.0.1 (another one when the port is taken: the exporter exits), for at
# most five minutes; sets exporter_port.
start_exporter() {
  local exporter=$1 dsn=$2 queries=$3 log=$4 attempt tick
  for attempt in 1 2 3 4 5; do
    exporter_port=$((20000 + RANDOM % 20000))
    DATA_SOURCE_NAME=$dsn timeout 300 "$exporter" --web.listen-address="127.0.0.1:$exporter_port" \
      --extend.query-path="$queries" --disable-default-metrics --disable-settings-metrics \
      --no-collector.database --no-collector.bgwriter >"$log" 2>&1 &
    exporter_pid=$!
    for tick in $(seq 100); do
      grep -q "msg=\"Listening on\" address=127.0.0.1:$exporter_port" "$log" && return 0
      kill -0 "$exporter_pid" 2>/dev/null || break
      sleep 0.1
    done
    echo "--- $suite: the exporter did not listen on 127.0.0.1:$exporter_port (attempt $attempt, ${tick} waits):" >&2
    sed 's/^/  | /' "$log" >&2
    stop_exporter
  done
  return 1
}
stop_exporter() {
  [ -n "$exporter_pid" ] || return 0
  kill "$exporter_pid" 2>/dev/null
  wait "$exporter_pid" 2>/dev/null
  exporter_pid=""
}
