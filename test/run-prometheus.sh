#!/usr/bin/env bash
# prometheus-postgres-exporter with monitoring/prometheus/queries.yaml against
# the cluster the PG* environment points at: a database with work in two
# lanes, a blocked subscription and leases; the exporter started on a free
# port of 127.0.0.1 (stopped on exit), connected as a login role that has
# act_reader and nothing else, and scraped. Every pg_act_* family has HELP and
# TYPE, the samples are the rows of act.metrics() one to one, the labels are
# lane and the exporter's server, no stream name appears anywhere, the
# exporter reports no error, and the rules of monitoring/prometheus/alerts.yaml
# name metrics it exports. Details go to stderr; the last line on stdout is
# "PASSED FAILED".
#   test/run-prometheus.sh WORK [exporter, default /usr/bin/prometheus-postgres-exporter]
set -uo pipefail
work=$1
exporter=${2:-/usr/bin/prometheus-postgres-exporter}
cd "$(dirname "$0")/.." || { echo "0 1"; exit 0; }
suite=prometheus
# shellcheck source=test/operations/checks.sh
source test/operations/checks.sh
# shellcheck source=test/operations/exporter.sh
source test/operations/exporter.sh
queries=$PWD/monitoring/prometheus/queries.yaml
alerts=monitoring/prometheus/alerts.yaml
for tool in "$exporter" curl; do
  if ! command -v "$tool" >/dev/null; then
    echo "--- $suite: no $tool (scripts/deps.sh installs it)" >&2
    echo "0 1"
    exit 0
  fi
done

db=act_prometheus_$$
role=act_prometheus_$$
mkdir -p "$work"
log=$work/prometheus-exporter.log
scrape=$work/prometheus.metrics
cleanup() {
  stop_exporter
  dropdb --if-exists "$db" >/dev/null 2>&1
  sql postgres -c "DROP ROLE IF EXISTS $role" >/dev/null 2>&1
}
trap cleanup EXIT
finish() {  # finish: cleans up before the last line, so that no reader of it races the cleanup
  cleanup
  trap - EXIT
  echo "$passed $failed"
  exit 0
}

# Every stream name carries "zq7", which must not reach a sample: two lanes
# with work (default, slow), a blocked subscription and a lease in slow, a
# lease in default, a lane whose work is done (batch: its lease expired, it
# was claimed again and acked), a subscription without work, and a conflict,
# so that each cumulative counter has counted something.
if ! createdb "$db" || ! sql "$db" >/dev/null <<SQL
CREATE EXTENSION pg_act;
CREATE ROLE $role LOGIN IN ROLE act_reader;
ALTER ROLE $role SET statement_timeout = '2s';
SELECT count(*) FROM act.subscribe('[
  {"stream": "zq7-projector-a", "source": "zq7-order-1"},
  {"stream": "zq7-projector-b", "source": "zq7-order-1"},
  {"stream": "zq7-mailer-a", "source": "zq7-order-1", "lane": "slow"},
  {"stream": "zq7-mailer-b", "source": "zq7-order-1", "lane": "slow"},
  {"stream": "zq7-archiver", "source": "zq7-order-1", "lane": "batch"},
  {"stream": "zq7-audit", "source": "zq7-quiet"}]');
SELECT count(*) FROM act.commit('zq7-order-1', '[{"name": "Placed"}, {"name": "Paid"}]');
SELECT count(*) FROM act.claim(1, 0, 'w-batch', 0, 'batch');
SELECT count(*) FROM act.claim(1, 0, 'w-batch', 600000, 'batch');
SELECT count(*) FROM act.ack(jsonb_build_array(
  jsonb_build_object('stream', 'zq7-archiver', 'by', 'w-batch', 'at', act.max_event_id())));
SELECT count(*) FROM act.claim(2, 0, 'w-slow', 600000, 'slow');
SELECT count(*) FROM act.block('[{"stream": "zq7-mailer-b", "by": "w-slow", "error": "zq7 handler failed"}]');
SELECT count(*) FROM act.claim(1, 0, 'w-default', 600000, 'default');
SQL
then
  echo "--- $suite: cannot create database $db with pg_act, its data and role $role" >&2
  echo "0 1"
  exit 0
fi
check "a commit with a stale expected version conflicts" \
  grep -q 'concurrency conflict' <<<"$(sql "$db" -c "SELECT 1 FROM act.commit('zq7-order-1', '[{\"name\": \"Late\"}]', '{}', 0)" 2>&1)"
mode=$(sql "$db" -c 'SELECT act.mode()')
check "the marker zq7 is there to leak: act.lag() shows it in streams and errors" \
  test "$(sql "$db" -c 'SELECT stream, error FROM act.lag()' | grep -c zq7)" -ge 4

dsn="host=${PGHOST:-/var/run/postgresql} port=${PGPORT:-5432} user=$role dbname=$db"
[[ ${PGHOST:-/} == /* ]] && dsn+=" sslmode=disable"
if ! start_exporter "$exporter" "$dsn" "$queries" "$log"; then
  failed=$((failed + 1))
  finish
fi

# act.metrics() and the scrape, each as NAME|LABEL NAMES|LANE|VALUE lines. The
# exporter adds the label server; values are compared as doubles.
normalize() {
  awk -F'|' 'BEGIN { OFS = "|" }
    { if ($4 ~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/) $4 = sprintf("%.17g", $4 + 0); print }' | LC_ALL=C sort
}
from_sql() {
  sql "$db" -c "SELECT metric, (SELECT string_agg(k, ',' ORDER BY k) FROM jsonb_object_keys(labels || '{\"server\": \"\"}') k),
                       coalesce(labels ->> 'lane', ''), value FROM act.metrics()" | normalize
}
from_scrape() {
  awk '/^pg_act_/ {
    value = $NF; head = substr($0, 1, length($0) - length(value) - 1); name = head; labels = ""
    if (i = index(head, "{")) { name = substr(head, 1, i - 1); labels = substr(head, i + 1, length(head) - i - 1) }
    lane = ""
    if (match(labels, /(^|,)lane="[^"]*"/)) { lane = substr(labels, RSTART, RLENGTH); sub(/^,?lane="/, "", lane); sub(/"$/, "", lane) }
    keys = labels; gsub(/="[^"]*"/, "", keys)
    print name "|" keys "|" lane "|" value }' "$scrape" | normalize
}
changing='^pg_act_(oldest_work_age|horizon_held|log_unsealed_age)_seconds[|]'
value_in() {  # value_in LINES NAME [LANE]: the value of that sample, nothing when there is none
  awk -F'|' -v name="$2" -v lane="${3:-}" '$1 == name && $3 == lane { print $4 }' <<<"$1"
}
# shellcheck disable=SC2317  # called through check
compare() {  # compare A OP B: numbers, both present; OP is == > >=
  awk -v a="$1" -v op="$2" -v b="$3" \
    'BEGIN { exit !(a != "" && b != "" && ((op == "==" && a + 0 == b + 0) || (op == ">" && a + 0 > b + 0) || (op == ">=" && a + 0 >= b + 0))) }'
}

before=$(from_sql)
check "the exporter answers /metrics" curl -sS --max-time 20 -o "$scrape" "http://127.0.0.1:$exporter_port/metrics"
after=$(from_sql)
samples=$(from_scrape)

# The exporter itself: connected, the file loaded, no query failed.
check "pg_up is 1" grep -qx 'pg_up 1' "$scrape"
check "pg_exporter_last_scrape_error is 0" grep -qx 'pg_exporter_last_scrape_error 0' "$scrape"
check "pg_exporter_user_queries_load_error is 0 for queries.yaml" \
  grep -qE ' 0$' <<<"$(grep -F "pg_exporter_user_queries_load_error{filename=\"$queries\"" "$scrape")"
errors=$(grep -E 'level=error|Error running query' "$log")
check "the exporter logs no error${errors:+ (below)}" test -z "$errors"
[ -n "$errors" ] && echo "$errors" >&2

# The samples are act.metrics(), one to one; the ages lie between the
# readings before and after the scrape.
steady=$(grep -Ev "$changing" <<<"$before")
check "act.metrics() has the store-wide figures and three per lane for two lanes" test "$(wc -l <<<"$steady")" -ge 11
check "the scrape's pg_act_* samples equal act.metrics() (diff below: - act.metrics(), + scrape)" \
  diff <(echo "$steady") <(grep -Ev "$changing" <<<"$samples") >&2
for name in pg_act_oldest_work_age_seconds pg_act_horizon_held_seconds pg_act_log_unsealed_age_seconds; do
  scraped=$(value_in "$samples" "$name")
  check "$name is at least act.metrics()'s before the scrape" compare "$scraped" '>=' "$(value_in "$before" "$name")"
  check "$name is at most act.metrics()'s after the scrape" compare "$(value_in "$after" "$name")" '>=' "$scraped"
done

# Each family with HELP and TYPE; those of always in either mode.
always=(pg_act_concurrent_mode pg_act_horizon pg_act_max_event_id pg_act_subscriptions pg_act_expired_leases
        pg_act_oldest_work_age_seconds pg_act_horizon_held_seconds pg_act_log_entries pg_act_log_unsealed_age_seconds
        pg_act_log_seal_stopped pg_act_subscriptions_with_work pg_act_subscriptions_blocked pg_act_subscriptions_leased)
mapfile -t families < <({ cut -d'|' -f1 <<<"$before"; printf '%s\n' "${always[@]}"; } | grep . | sort -u)
for name in "${families[@]}"; do
  type=gauge
  [[ $name == *_total ]] && type=counter
  check "$name has a HELP text" grep -qE "^# HELP $name [^ ]" "$scrape"
  check "$name is a $type" grep -qx "# TYPE $name $type" "$scrape"
done

# The Grafana dashboard (monitoring/grafana/pg_act.json) charts only
# families the scrape has; the counters exist in concurrent mode only.
dashboard=monitoring/grafana/pg_act.json
check "the dashboard is JSON with panels, each with a query" \
  jq -e '(.panels | length) > 0 and all(.panels[]; (.targets | length) > 0)' "$dashboard" >/dev/null
missing=$(jq -r '.. | .expr? // empty' "$dashboard" | grep -oE 'pg_act_[a-z_]+' | sort -u | while read -r name; do
  grep -q "^# TYPE $name " "$scrape" || { [ "$mode" != concurrent ] && [[ $name == *_total ]]; } || echo "$name"
done)
check "every family the dashboard charts is in the scrape${missing:+ (missing: ${missing//$'\n'/ })}" test -z "$missing"

# The values the data above makes.
sample() {  # sample NAME LANE VALUE: a check that the scrape has it
  local what=$1
  [ -n "$2" ] && what+="{lane=\"$2\"}"
  check "$what is $3" compare "$(value_in "$samples" "$1" "$2")" == "$3"
}
sample pg_act_subscriptions "" 6
sample pg_act_max_event_id "" 2
sample pg_act_expired_leases "" 0
sample pg_act_concurrent_mode "" "$([ "$mode" = concurrent ] && echo 1 || echo 0)"
sample pg_act_subscriptions_with_work default 2
sample pg_act_subscriptions_with_work slow 1
sample pg_act_subscriptions_blocked default 0
sample pg_act_subscriptions_blocked slow 1
sample pg_act_subscriptions_leased default 1
sample pg_act_subscriptions_leased slow 2
check "no sample for the batch lane, whose work is done" test -z "$(grep -F '|batch|' <<<"$samples")"
check "pg_act_oldest_work_age_seconds is above 0" compare "$(value_in "$samples" pg_act_oldest_work_age_seconds)" '>' 0

# Labels: lane on the per-lane families, none on the others, never a stream.
misplaced=$(awk -F'|' '($1 ~ /^pg_act_subscriptions_/) ? $2 != "lane,server" : $2 != "server"' <<<"$samples")
check "the per-lane families carry lane and server, the others server only${misplaced:+ (below)}" test -z "$misplaced"
[ -n "$misplaced" ] && echo "$misplaced" >&2
check "no stream name (zq7...) anywhere in the scrape" test "$(grep -c zq7 "$scrape")" -eq 0

# --- Cumulative counters -----------------------------------------------------
# queries.yaml maps pg_act_{commits,events,conflicts,claims,acks,blocks,retries}_total
# and pg_act_counters_reset_time_seconds; act.metrics() returns them only when
# pg_act is preloaded (concurrent mode): there each is required, at least at
# what the data above counted.
counted=(commits:1 events:2 conflicts:1 claims:5 acks:1 blocks:1 retries:1)
if [ "$mode" = fenced ]; then
  check "fenced mode: no counter samples, and no NaN in their place" \
    test -z "$(grep -E '^pg_act_(.*_total|counters_reset_time_seconds)[ {]' "$scrape")"
else
  for entry in "${counted[@]}"; do
    name=pg_act_${entry%%:*}_total
    check "$name counted at least ${entry#*:}" compare "$(value_in "$samples" "$name")" '>=' "${entry#*:}"
  done
  check "pg_act_counters_reset_time_seconds is a Unix time" \
    compare "$(value_in "$samples" pg_act_counters_reset_time_seconds)" '>' 1000000000
fi
# -----------------------------------------------------------------------------

# The alert rules name exported metrics (a renamed metric would leave a rule
# that never fires), and docs/operations.md names every exported family.
rules=$(grep -c '^ *- alert: ' "$alerts")
check "alerts.yaml has rules" test "$rules" -ge 4
check "each rule of alerts.yaml has an expr" test "$(grep -c '^ *expr: ' "$alerts")" -eq "$rules"
mapfile -t used < <(grep '^ *expr: ' "$alerts" | grep -oE 'pg_[a-z_]+' | sort -u)
for name in "${used[@]}"; do
  check "the alert rules' $name is exported" grep -q "^# TYPE $name " "$scrape"
done
mapfile -t documented < <(awk '$1 == "-" && $2 == "alert:" { alert = $3 } $1 == "expr:" { sub(/^ *expr: /, ""); expr = $0 }
  $1 == "for:" { print "| `" alert "` | `" expr "` | " $2 " |" }' "$alerts")
check "each rule of alerts.yaml has a for" test "${#documented[@]}" -eq "$rules"
for row in "${documented[@]}"; do
  check "docs/operations.md's alert table has $row" grep -qF "$row" docs/operations.md
done
mapfile -t exported < <(grep -oE '^# TYPE pg_act_[a-z_]+' "$scrape" | cut -d' ' -f3)
for name in "${exported[@]}"; do
  check "docs/operations.md names $name" grep -qw "$name" docs/operations.md
done

finish
