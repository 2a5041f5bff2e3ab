#!/usr/bin/env bash
# A partitioned deployment (docs/scale-out.md) on three throwaway clusters:
# node A hosts the partition databases act_p0 and act_p2, node B act_p1 and
# act_p3 (both with pg_act preloaded), and a router cluster whose database
# `router` has PL/Proxy, the server act_cluster and sql/router/pg_act_router.sql.
# Through the router: 400 commits land in their partitions (checked against
# SHA-256 computed here by Python), ids gapless per partition, every stream
# read back; a same-stream race keeps 40001 and loses no version; claims per
# partition hand every event once; the monitoring calls (act.status_p,
# act.lag_p, act.metrics_p, act.status_by_partition, act.lag_by_partition,
# act.metrics) answer what each partition's own act.status(), act.lag() and
# act.metrics() do, the partition named, also to prometheus-postgres-exporter
# with monitoring/prometheus/router-queries.yaml; with node B stopped only
# partitions 1 and 3 fail, by name, act.partitions() and the monitoring calls
# say so and go on with 0 and 2; once it is back the failed
# commits go through; partition 1 moves to node A by pg_dump / pg_restore and
# ALTER SERVER; the loops over partitions (verify, query_stats, prioritize,
# truncate) answer for all four. Directly, a partition database refuses
# another partition's stream with 22023. build/partition_router_stress
# drains under churn through the router alone (committers and drainers in
# processes of their own, drainers SIGKILLed mid-batch): nothing lost,
# nothing acknowledged twice, order per stream and per partition. Last, the C++ client's
# build/partition_tests runs on four partition databases of its own
# (ACT_PARTITIONS) and a read model database (ACT_READ_MODEL), and again
# with node B stopped for its node-down tests.
# Usage: test/run-partitions.sh [WORK_DIR]   (default: a new temporary one)
# Details go to stderr; the last line is "partitions: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
suite=partitions
# shellcheck source=test/operations/checks.sh
source test/operations/checks.sh
# shellcheck source=test/operations/exporter.sh
source test/operations/exporter.sh

summary() {
  echo "partitions: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
give_up() {  # give_up MESSAGE: counts a failure, reports, ends the run
  check "$1" false
  summary
  exit 1
}

# PL/Proxy, from Debian, when missing.
if ! dpkg-query -W -f='${Status}' postgresql-15-plproxy 2>/dev/null | grep -q 'install ok installed'; then
  [ "$(id -u)" -eq 0 ] || give_up "postgresql-15-plproxy is not installed (as root: apt-get install postgresql-15-plproxy)"
  echo "installing postgresql-15-plproxy (apt-get install)" >&2
  export DEBIAN_FRONTEND=noninteractive
  { apt-get install -y -qq --no-install-recommends postgresql-15-plproxy ||
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql-15-plproxy; }; } >/dev/null 2>&1 ||
    give_up "apt-get install postgresql-15-plproxy"
fi

if [ -n "${1:-}" ]; then
  dir=$1
  mkdir -p "$dir"
  own_dir=false
else
  dir=$(mktemp -d /tmp/pg_act_partitions.XXXXXX)
  own_dir=true
fi
chmod 755 "$dir"
for node in a b router; do
  [ -e "$dir/$node" ] && give_up "$dir/$node exists already: give an empty work directory"
done
cleanup() {
  stop_exporter
  for node in router b a; do scripts/cluster.sh stop "$dir/$node" >/dev/null 2>&1; done
  if $own_dir; then rm -rf "$dir"; fi
}
trap cleanup EXIT

# psql_on NODE DATABASE psql-arguments...: unaligned, tuples only; no call
# waits for more than a minute.
psql_on() {
  local node=$1 db=$2
  shift 2
  # shellcheck disable=SC1090
  (source "$dir/$node/env" &&
    PGCLIENTENCODING=UTF8 PGOPTIONS='-c client_min_messages=warning -c statement_timeout=60s' \
      psql -X -q -At -d "$db" "$@")
}
on() { psql_on "$@" -v ON_ERROR_STOP=1; }  # stops at the first error
router() { on router router "$@"; }
# sqlstate NODE DATABASE SQL: the SQLSTATE SQL fails with ("ok" when it does not).
sqlstate() {
  local out
  out=$(psql_on "$1" "$2" -v VERBOSITY=sqlstate -c "$3" 2>&1 >/dev/null)
  [ -z "$out" ] && { echo ok; return; }
  echo "$out" | sed -n 's/^ERROR: *\([0-9A-Z]\{5\}\).*/\1/p' | head -n 1
}
# error_of NODE DATABASE SQL: the message SQL fails with (empty when it does not).
error_of() { psql_on "$1" "$2" -c "$3" 2>&1 >/dev/null; }
# node_of PARTITION: the node hosting it (even partitions on A, odd on B,
# until partition 1 moves to A).
hosts=(a b a b)
node_of() { echo "${hosts[$1]}"; }
# start_again NODE: starts a stopped node as it was (same data, port and socket).
start_again() {
  local run=()
  [ "$(id -u)" -eq 0 ] && run=(runuser -u postgres --)
  "${run[@]}" "$(pg_config --bindir)/pg_ctl" -D "$dir/$1/data" -l "$dir/$1/server.log" -w -t 60 start >/dev/null
}

# 1. Two nodes, four partition databases, a router.
preload="shared_preload_libraries = 'pg_act'"
{ scripts/cluster.sh start "$dir/a" "$preload" && scripts/cluster.sh start "$dir/b" "$preload" &&
  scripts/cluster.sh start "$dir/router"; } || give_up "the three clusters start"
partitions=4
for p in 0 1 2 3; do
  node=$(node_of $p)
  # shellcheck disable=SC1090
  (source "$dir/$node/env" && createdb "act_p$p") && on "$node" "act_p$p" -c 'CREATE EXTENSION pg_act' ||
    give_up "act_p$p is created on node $node"
done
for p in 0 1 2 3; do
  check "act_p$p becomes partition $p of $partitions" \
    on "$(node_of $p)" "act_p$p" -o /dev/null -c "SELECT act.set_partition($p, $partitions)"
done
conninfo() {  # conninfo PARTITION: its connect string, over the node's private socket
  # shellcheck disable=SC1090
  (source "$dir/$(node_of "$1")/env" && echo "host=$PGHOST port=$PGPORT dbname=act_p$1")
}
# shellcheck disable=SC1091
(source "$dir/router/env" && createdb router) &&
  router -c 'CREATE EXTENSION plproxy' \
    -c "CREATE SERVER act_cluster FOREIGN DATA WRAPPER plproxy OPTIONS (
          p0 '$(conninfo 0)', p1 '$(conninfo 1)', p2 '$(conninfo 2)', p3 '$(conninfo 3)')" \
    -c 'CREATE USER MAPPING FOR PUBLIC SERVER act_cluster' &&
  router -f sql/router/pg_act_router.sql >/dev/null || give_up "the router database is set up"
check "the router counts $partitions partitions" test "$(router -c 'SELECT act.router_partitions()')" = $partitions

# 2. act.partition_of on the router: the vectors of core's tests, then 400
#    streams against SHA-256 computed here.
check "act.partition_of on the router gives the vectors of test/core/partition_test.cpp" \
  test "$(router -c "SELECT concat_ws(' ', act.partition_of('ticket-1', 64), act.partition_of('ticket-1', 4),
                       act.partition_of('ticket-1', 2), act.partition_of('ticket-1', 65536), act.partition_of('order-7', 64),
                       act.partition_of('order-7', 65536), act.partition_of('Zürich-42', 64),
                       act.partition_of('Zürich-42', 65536), act.partition_of('ticket-1'))")" = "15 3 1 58895 2 63490 38 27814 3"
stream_sql="CASE WHEN i % 5 = 0 THEN 'Zürich-' || i ELSE 'ticket-' || i END"
PYTHONIOENCODING=utf-8 python3 -c '
import hashlib
for i in range(1, 401):
    s = ("Zürich-%d" if i % 5 == 0 else "ticket-%d") % i
    print(s, int.from_bytes(hashlib.sha256(s.encode("utf-8")).digest()[:4], "big") & 3)
' >"$dir/expected"
router -c "SELECT ($stream_sql) || ' ' || act.partition_of($stream_sql) FROM generate_series(1, 400) AS i" >"$dir/routed"
check "act.partition_of on the router agrees with hashlib for 400 streams" cmp -s "$dir/expected" "$dir/routed"

# 3. 400 commits through the router, each in its stream's partition.
check "400 commits to 400 streams through the router" \
  test "$(router -c "SELECT count(*) FROM generate_series(1, 400) AS i,
                       act.commit($stream_sql, jsonb_build_array(jsonb_build_object('name', 'Opened',
                                                                                    'data', jsonb_build_object('i', i)))) AS e")" = 400
for p in 0 1 2 3; do
  awk -v p=$p '$2 == p { print $1 }' "$dir/expected" | LC_ALL=C sort >"$dir/expected.$p"
  on "$(node_of $p)" "act_p$p" -c 'SELECT stream FROM act.events ORDER BY stream COLLATE "C"' >"$dir/landed.$p"
  check "act_p$p holds exactly the $(wc -l <"$dir/expected.$p") streams of partition $p" \
    cmp -s "$dir/expected.$p" "$dir/landed.$p"
  check "act_p$p: ids gapless (count = max id)" \
    test "$(on "$(node_of $p)" "act_p$p" -c 'SELECT count(*) = max(id) AND count(*) > 0 FROM act.events')" = t
done
check "every stream reads back through the router" \
  test "$(router -c "SELECT count(*) FROM generate_series(1, 400) AS i, act.query($stream_sql) AS e
                      WHERE (e.data ->> 'i')::int = i AND e.version = 0")" = 400
check "act.version through the router" test "$(router -c "SELECT act.version('Zürich-5')")" = 0

# Consistency boundaries through the router (docs/scale-out.md): act.append
# goes to its first event's stream's partition, act.read to its first tag's;
# a tag and a stream of the same name live on the same partition.
boundary="course:router-1"
boundary_event="[{\"stream\": \"$boundary\", \"name\": \"CourseDefined\", \"tags\": [\"$boundary\"]}]"
boundary_condition="{\"fail_if_events_match\": {\"items\": [{\"tags\": [\"$boundary\"]}]}}"
check "act.append of a tagged event through the router, on a condition" \
  test "$(router -c "SELECT count(*) FROM act.append('$boundary_event', '$boundary_condition')")" = 1
boundary_p=$(router -c "SELECT act.partition_of('$boundary')")
check "the tagged event is in its tag's partition, act_p$boundary_p" \
  test "$(on "$(node_of "$boundary_p")" "act_p$boundary_p" -c "SELECT count(*) FROM act.events WHERE stream = '$boundary'")" = 1
check "act.read of its tag through the router finds it with its tags" \
  test "$(router -c "SELECT stream || ' ' || array_to_string(tags, ',') FROM act.read('{\"items\": [{\"tags\": [\"$boundary\"]}]}')")" = "$boundary $boundary"
check "the same append again through the router fails its condition (40001)" \
  test "$(sqlstate router router "SELECT act.append('$boundary_event', '$boundary_condition')")" = 40001
elsewhere=$(router -c "SELECT t FROM (SELECT 'room:' || i AS t FROM generate_series(1, 64) AS i) AS x
                       WHERE act.partition_of(t) <> $boundary_p LIMIT 1")
check "an event tagged for another partition than its stream's is refused (22023)" \
  test "$(sqlstate router router "SELECT act.append('[{\"stream\": \"$boundary\", \"name\": \"Booked\", \"tags\": [\"$elsewhere\"]}]')")" = 22023
check "a read whose first tag lives elsewhere than another item's is refused (22023)" \
  test "$(sqlstate router router "SELECT count(*) FROM act.read('{\"items\": [{\"tags\": [\"$boundary\"]}, {\"tags\": [\"$elsewhere\"]}]}')")" = 22023

# 4. The same-stream race: 4 writers, 25 attempts each, each with the version
#    it read as expected_version.
for _ in $(seq 25); do
  echo "SELECT version FROM act.commit('race', '[{\"name\": \"Raced\"}]', '{}', act.version('race'));"
done >"$dir/race.sql"
writers=()
for w in 1 2 3 4; do
  psql_on router router -v VERBOSITY=sqlstate -f "$dir/race.sql" >"$dir/race.$w.out" 2>"$dir/race.$w.err" &
  writers+=($!)
done
wait "${writers[@]}"
cat "$dir"/race.*.out | sort -n >"$dir/race.won"
won=$(wc -l <"$dir/race.won")
conflicts=$(cat "$dir"/race.*.err | grep -c 'ERROR: *40001')
check "race: every attempt either committed or failed with 40001 ($won + $conflicts of 100)" \
  test $((won + conflicts)) -eq 100 -a "$(cat "$dir"/race.*.err | grep -c 'ERROR')" -eq "$conflicts"
check "race: writers met conflicts" test "$conflicts" -gt 0
check "race: every success has a version of its own" test "$(uniq "$dir/race.won" | wc -l)" -eq "$won"
race_p=$(router -c "SELECT act.partition_of('race')")
on "$(node_of "$race_p")" "act_p$race_p" -c "SELECT version FROM act.events WHERE stream = 'race' ORDER BY version" \
  >"$dir/race.stored"
check "race: the stream holds exactly the versions the writers were told, 0 to $((won - 1))" \
  test "$(cat "$dir/race.stored")" = "$(seq 0 $((won - 1)))" -a "$(cat "$dir/race.won")" = "$(seq 0 $((won - 1)))"
check "a stale expected_version through the router is 40001" \
  test "$(sqlstate router router "SELECT * FROM act.commit('race', '[{\"name\": \"Late\"}]', '{}', 0)")" = 40001

# 5. The router's refusals and what it forwards.
check "act.query of every stream through the router is refused (22023)" \
  test "$(sqlstate router router "SELECT * FROM act.query(after => 0)")" = 22023
check "act.query of a pattern through the router is refused (22023)" \
  test "$(sqlstate router router "SELECT * FROM act.query('^ticket-', stream_exact => false)")" = 22023
check "act.subscribe with a correlate checkpoint through the router is refused (22023)" \
  test "$(sqlstate router router "SELECT * FROM act.subscribe('[{\"stream\": \"t\"}]', 5)")" = 22023
check "a per-partition call for partition 4 of 4 is refused (22023)" \
  test "$(sqlstate router router "SELECT * FROM act.claim_p(4, 1, 0, 'w', 1000)")" = 22023
router -c 'CREATE ROLE app IN ROLE act_router_user' -c 'CREATE ROLE outsider' \
  -c "CREATE USER MAPPING FOR app SERVER act_cluster OPTIONS (user 'postgres')"
check "a role without act_router_user may not call the router (42501)" \
  test "$(sqlstate router router "SET ROLE outsider; SELECT act.version('race')")" = 42501
check "a role with act_router_user may" \
  test "$(router -c "SET ROLE app" -c "SELECT act.version('race')")" = $((won - 1))
check "act.query_p reads one partition after a position" \
  test "$(router -c "SELECT count(*) FROM act.query_p($race_p, after => 0)")" = \
  "$(on "$(node_of "$race_p")" "act_p$race_p" -c 'SELECT count(*) FROM act.events')"

# 6. A partition database refuses another partition's stream, whatever the call.
other=$(awk '$2 == 1 { print $1; exit }' "$dir/expected")  # a stream of partition 1
for call in "SELECT * FROM act.commit('$other', '[{\"name\": \"Misrouted\"}]')" \
  "SELECT * FROM act.commit_by_key('$other', 'k')" "SELECT * FROM act.query('$other')" \
  "SELECT act.version('$other')" "SELECT * FROM act.verify('$other')" "SELECT act.forget_pii('$other')" \
  "SELECT * FROM act.truncate('[{\"stream\": \"$other\"}]')" "SELECT * FROM act.query_stats('[\"$other\"]')" \
  "SELECT * FROM act.subscribe('[{\"stream\": \"misrouted\", \"source\": \"$other\"}]')"; do
  check "act_p0 refuses $call: 22023 naming both partitions" \
    grep -q '^ERROR: *22023: .*belongs to partition 1 of 4; this database hosts partition 0' \
    <<<"$(psql_on a act_p0 -v VERBOSITY=verbose -c "$call" 2>&1 >/dev/null)"
done
check "act_p0 still holds no stream of partition 1" \
  test "$(on a act_p0 -c "SELECT count(*) FROM act.events WHERE stream = '$other'")" = 0

# 7. Claims per partition: a source-less target and one that follows one
#    stream, subscribed through the router, then 40 commits; a drain of each
#    partition through act.claim_events_p and act.ack_p hands every event of
#    its partition once.
followed=ticket-1  # partition 3 of 4
check "subscribe through the router: the source-less target in 4 partitions, the literal one in 1" \
  test "$(router -c "SELECT subscribed FROM act.subscribe('[{\"stream\": \"audit\"}, {\"stream\": \"follower\", \"source\": \"$followed\"}]')")" = 5
check "the follower's row is in partition 3 only" \
  test "$(router -c "SELECT string_agg(p::text, ',') FROM generate_series(0, 3) AS p, act.query_streams_p(p) AS s
                      WHERE s.stream = 'follower'")" = 3
router -c "SELECT count(*) FROM generate_series(1, 40) AS i,
             act.commit(CASE WHEN i % 4 = 0 THEN '$followed' ELSE 'later-' || i END, '[{\"name\": \"Later\"}]')" >/dev/null
router >/dev/null <<'SQL'
CREATE TABLE handed (partition int, target text, id bigint, stream text, version int);
DO $$
DECLARE
  p int;
  c record;
  claims int;
  rounds int := 0;
BEGIN
  FOR p IN 0 .. 3 LOOP
    LOOP
      claims := 0;
      FOR c IN SELECT * FROM act.claim_events_p(p, 10, 0, 'drainer', 60000, NULL, 50) LOOP
        claims := claims + 1;
        INSERT INTO handed
        SELECT p, c.stream, (e ->> 'id')::bigint, e ->> 'stream', (e ->> 'version')::int
          FROM jsonb_array_elements(c.events) AS e;
        PERFORM act.ack_p(p, jsonb_build_array(jsonb_build_object(
          'stream', c.stream, 'by', 'drainer', 'lagging', c.lagging,
          'at', coalesce((SELECT max((e ->> 'id')::bigint) FROM jsonb_array_elements(c.events) AS e), c.at))));
      END LOOP;
      EXIT WHEN claims = 0;
      rounds := rounds + 1;
      IF rounds > 500 THEN
        RAISE EXCEPTION 'the drain does not end';
      END IF;
    END LOOP;
  END LOOP;
END $$;
SQL
check "the drain through the router ends" test $? -eq 0
for p in 0 1 2 3; do
  on "$(node_of $p)" "act_p$p" -c "SELECT id, stream, version FROM act.events ORDER BY id" >"$dir/events.$p"
  router -c "SELECT id, stream, version FROM handed WHERE partition = $p AND target = 'audit' ORDER BY id" >"$dir/handed.$p"
  check "partition $p handed the source-less target exactly its $(wc -l <"$dir/events.$p") events" \
    cmp -s "$dir/events.$p" "$dir/handed.$p"
done
check "no event handed twice" \
  test "$(router -c 'SELECT count(*) = count(DISTINCT (partition, target, id)) FROM handed')" = t
check "the follower was handed its stream's 11 events, in partition 3" \
  test "$(router -c "SELECT count(*) FILTER (WHERE partition = 3 AND stream = '$followed') || ' ' || count(*)
                      FROM handed WHERE target = 'follower'")" = "11 11"
check "after the acks nothing is left to claim" \
  test "$(router -c "SELECT count(*) FROM generate_series(0, 3) AS p, act.claim_p(p, 10, 10, 'late', 1000)")" = 0

# 8. Monitoring through the router, every node up. Work for it: a
#    subscription in lane "watch" following a stream of partition 2, and a
#    commit in partition 0, then one in partition 2 (the drain above left no
#    work), so the oldest waiting work is the source-less target's in 0. The
#    exporter connects as a role whose user mapping reaches the partitions as
#    act_reader alone.
in_partition() {  # in_partition P: a stream of partition P
  router -c "SELECT s FROM generate_series(1, 100) AS i, concat('watched-', i) AS s WHERE act.partition_of(s) = $1 LIMIT 1"
}
earlier=$(in_partition 0)
watched=$(in_partition 2)
router -o /dev/null -c "SELECT * FROM act.subscribe('[{\"stream\": \"watcher\", \"source\": \"$watched\", \"lane\": \"watch\"}]')" \
  -c "SELECT * FROM act.commit('$earlier', '[{\"name\": \"Watched\"}]')" \
  -c "SELECT * FROM act.commit('$watched', '[{\"name\": \"Watched\"}]')"
# direct P SQL [-c SQL...]: the answers in partition P's own database.
direct() {
  local p=$1
  shift
  on "$(node_of "$p")" "act_p$p" -c "$@"
}
waiting_0=$(direct 0 "SELECT id FROM act.events WHERE stream = '$earlier'")
waiting_2=$(direct 2 "SELECT id FROM act.events WHERE stream = '$watched'")
status_columns="mode, horizon, max_event_id, subscriptions, with_work, blocked, leased, expired_leases"
lag_columns="stream, lane_name, at, work_mark, waiting_id, waiting_since, blocked, error, leased_by, retry"
# The samples that stay put between two readings (no ages; the log's tree
# may grow as the node seals it).
steady="metric !~ '_seconds\$' AND metric !~ '^pg_act_log_'"
for p in 0 1 2 3; do
  check "act.status_p($p), act.lag_p($p) and act.metrics_p($p) answer what act_p$p's own calls do" \
    test "$(router -c "SELECT $status_columns FROM act.status_p($p)" -c "SELECT $lag_columns FROM act.lag_p($p)" \
                   -c "SELECT metric, labels, value FROM act.metrics_p($p) WHERE $steady")" = \
    "$(direct $p "SELECT $status_columns FROM act.status()" -c "SELECT $lag_columns FROM act.lag()" \
                 -c "SELECT metric, labels, value FROM act.metrics() WHERE $steady")"
done
status_line="format('%s|%s|%s|%s|%s|%s|%s', partition, reachable, error, horizon, max_event_id, subscriptions, with_work)"
check "act.status_by_partition(): a row per partition, reachable, with its own horizon, head, subscriptions and work" \
  test "$(router -c "SELECT $status_line FROM act.status_by_partition()")" = \
  "$(for p in 0 1 2 3; do
       direct $p "SELECT format('%s|t||%s|%s|%s|%s', $p, act.horizon(), act.max_event_id(), subscriptions, with_work)
                    FROM act.status()"
     done)"
lag_line="string_agg(concat_ws(':', partition, stream, lane_name, waiting_id), ' ' ORDER BY ordinality)"
check "act.lag_by_partition(): the work of partitions 0 and 2, the oldest first, each with its partition and waiting event" \
  test "$(router -c "SELECT $lag_line FROM act.lag_by_partition() WITH ORDINALITY")" = \
  "0:audit:default:$waiting_0 2:audit:default:$waiting_2 2:watcher:watch:$waiting_2"
check "act.lag_by_partition(NULL, 2) stops at 2 rows over all partitions; lane watch is the watcher alone" \
  test "$(router -c "SELECT $lag_line FROM act.lag_by_partition(NULL, 2) WITH ORDINALITY" \
                 -c "SELECT $lag_line FROM act.lag_by_partition('watch') WITH ORDINALITY")" = \
  "$(printf '0:audit:default:%s 2:audit:default:%s\n2:watcher:watch:%s' "$waiting_0" "$waiting_2" "$waiting_2")"
check "act.lag_by_partition with max_rows 0 is refused (22023), not read as every partition failing" \
  test "$(sqlstate router router "SELECT * FROM act.lag_by_partition(NULL, 0)")" = 22023
check "act.metrics() on the router: pg_act_partition_up 1 for each partition" \
  test "$(router -c "SELECT string_agg(format('%s=%s', labels ->> 'partition', value), ' ')
                       FROM act.metrics() WHERE metric = 'pg_act_partition_up'")" = "0=1 1=1 2=1 3=1"
for p in 0 1 2 3; do
  check "act.metrics() on the router: the samples labelled partition $p are act_p$p's act.metrics()" \
    test "$(router -c "SELECT metric, labels - 'partition', value FROM act.metrics()
                        WHERE labels ->> 'partition' = '$p' AND metric <> 'pg_act_partition_up' AND $steady")" = \
    "$(direct $p "SELECT metric, labels, value FROM act.metrics() WHERE $steady")"
done
check "act.metrics() on the router: every sample labelled with its partition, no label but partition and lane" \
  test "$(router -c "SELECT count(*) > 40 AND bool_and(labels ? 'partition' AND labels - 'partition' - 'lane' = '{}')
                       FROM act.metrics()")" = t
check "act.metrics() on the router: lane watch has work in partition 2 alone" \
  test "$(router -c "SELECT string_agg(format('%s=%s', labels ->> 'partition', value), ' ') FROM act.metrics()
                      WHERE metric = 'pg_act_subscriptions_with_work' AND labels ->> 'lane' = 'watch'")" = "2=1"
for node in a b; do
  on $node postgres -c 'CREATE ROLE act_monitor LOGIN IN ROLE act_reader'
done
router -c 'CREATE ROLE monitor LOGIN IN ROLE act_router_user' \
  -c "CREATE USER MAPPING FOR monitor SERVER act_cluster OPTIONS (user 'act_monitor')"
check "the monitor role reads every partition's status through the router" \
  test "$(router -c "SET ROLE monitor" -c "SELECT bool_and(reachable) AND count(*) = 4 FROM act.status_by_partition()")" = t
check "the monitor role may not commit through the router (42501 from the partition)" \
  test "$(sqlstate router router "SET ROLE monitor; SELECT * FROM act.commit('$earlier', '[{\"name\": \"Sneaky\"}]')")" = 42501

# prometheus-postgres-exporter on the router with router-queries.yaml, as monitor.
# shellcheck disable=SC1091
monitor_dsn=$(source "$dir/router/env" && echo "host=$PGHOST port=$PGPORT user=monitor dbname=router sslmode=disable")
# scrape NAME: the exporter's pg_act_* samples and its scrape error, without
# the label server, in $dir/scrape.NAME; fails when the exporter does not answer.
scrape() {
  curl -sS --max-time 20 "http://127.0.0.1:$exporter_port/metrics" >"$dir/scrape.$1.raw" &&
    grep -E '^(pg_act_|pg_exporter_last_scrape_error )' "$dir/scrape.$1.raw" |
    sed 's/,server="[^"]*"//; s/{server="[^"]*"}//' >"$dir/scrape.$1"
}
# samples NAME METRIC: METRIC's samples in scrape NAME, one line.
samples() { grep "^$2[{ ]" "$dir/scrape.$1" | tr '\n' ' ' | sed 's/ $//'; }
if ! command -v prometheus-postgres-exporter >/dev/null || ! command -v curl >/dev/null; then
  check "prometheus-postgres-exporter and curl are installed (scripts/deps.sh installs them)" false
elif ! start_exporter prometheus-postgres-exporter "$monitor_dsn" "$PWD/monitoring/prometheus/router-queries.yaml" \
       "$dir/exporter.log"; then
  check "prometheus-postgres-exporter starts on the router (its log: $dir/exporter.log)" false
else
  check "the exporter on the router answers" scrape up
  check "the exporter: pg_act_partition_up 1 for each partition, no scrape error" \
    test "$(samples up pg_act_partition_up) $(samples up pg_exporter_last_scrape_error)" = \
    "$(printf 'pg_act_partition_up{partition="%s"} 1 ' 0 1 2 3)pg_exporter_last_scrape_error 0"
  check "the exporter: pg_act_horizon of each partition is that partition's act.horizon()" \
    test "$(samples up pg_act_horizon)" = \
    "$(for p in 0 1 2 3; do printf 'pg_act_horizon{partition="%s"} %s ' $p "$(direct $p 'SELECT act.horizon()')"; done |
       sed 's/ $//')"
  check "the exporter: lane watch has work in partition 2" \
    test "$(samples up pg_act_subscriptions_with_work | grep -o 'lane="watch"[^ ]* [0-9]*')" = 'lane="watch",partition="2"} 1'
fi

# 9. Node B stopped: partitions 1 and 3 fail by name, 0 and 2 go on.
scripts/cluster.sh stop "$dir/b" || check "node B stops without a crash" false
router >/dev/null <<'SQL'
CREATE TABLE attempts (stream text, partition int, committed boolean, error text);
DO $$
DECLARE
  s text;
BEGIN
  FOR s IN SELECT 'outage-' || i FROM generate_series(1, 40) AS i LOOP
    BEGIN
      PERFORM act.commit(s, '[{"name": "DuringOutage"}]');
      INSERT INTO attempts VALUES (s, act.partition_of(s), true, NULL);
    EXCEPTION WHEN OTHERS THEN
      INSERT INTO attempts VALUES (s, act.partition_of(s), false, SQLERRM);
    END;
  END LOOP;
END $$;
SQL
check "node B down: the commits to partitions 0 and 2 succeed, those to 1 and 3 fail" \
  test "$(router -c "SELECT count(*) FROM attempts WHERE committed <> (partition IN (0, 2))")" = 0
check "node B down: some commits went to each partition" \
  test "$(router -c "SELECT count(DISTINCT partition) FROM attempts")" = 4
check "node B down: each failure names its partition database" \
  test "$(router -c "SELECT count(*) FROM attempts WHERE NOT committed AND strpos(error, '[act_p' || partition || ']') = 0")" = 0
check "node B down: act.partitions() reports 1 and 3 unreachable, 0 and 2 with their heads" \
  test "$(router -c "SELECT string_agg(concat_ws(':', partition, reachable, max_event_id IS NOT NULL, error IS NOT NULL), ' '
                       ORDER BY partition) FROM act.partitions()")" = "0:t:t:f 1:f:f:t 2:t:t:f 3:f:f:t"
unblock_error=$(error_of router router "SELECT act.unblock('[\"audit\"]')")
check "node B down: an admin loop applies partitions 0 and 2 and names 1 and 3" \
  grep -q 'act.unblock failed on partition 1, 3 (applied on 0, 2)' <<<"$unblock_error"
horizon_0=$(direct 0 'SELECT act.horizon()')
horizon_2=$(direct 2 'SELECT act.horizon()')
check "node B down: act.status_by_partition() reports 1 and 3 unreachable, each error naming its database, 0 and 2 with their own horizons" \
  test "$(router -c "SELECT string_agg(format('%s:%s:%s:%s', partition, reachable, horizon,
                                              strpos(error, '[act_p' || partition || ']') > 0), ' ' ORDER BY partition)
                       FROM act.status_by_partition()")" = "0:t:$horizon_0: 1:f::t 2:t:$horizon_2: 3:f::t"
check "node B down: act.metrics() has pg_act_partition_up 0 for 1 and 3, 1 and the horizons for 0 and 2" \
  test "$(router -c "SELECT string_agg(format('%s{%s} %s', metric, labels ->> 'partition', value), ' ')
                       FROM act.metrics() WHERE metric IN ('pg_act_partition_up', 'pg_act_horizon')")" = \
  "pg_act_horizon{0} $horizon_0 pg_act_horizon{2} $horizon_2 pg_act_partition_up{0} 1 pg_act_partition_up{1} 0 pg_act_partition_up{2} 1 pg_act_partition_up{3} 0"
check "node B down: act.metrics() has no other sample of 1 and 3, and the samples of 0 and 2 still flow" \
  test "$(router -c "SELECT count(*) FILTER (WHERE labels ->> 'partition' IN ('1', '3') AND metric <> 'pg_act_partition_up')
                            || ' ' || (count(*) FILTER (WHERE labels ->> 'partition' = '0') > 10)
                            || ' ' || (count(*) FILTER (WHERE labels ->> 'partition' = '2') > 10) FROM act.metrics()")" = "0 true true"
lag_warning=$(psql_on router router -c "SELECT $lag_line FROM act.lag_by_partition() WITH ORDINALITY" 2>&1 >"$dir/lag.down")
check "node B down: act.lag_by_partition() still answers with the work of 0 and 2" \
  test "$(cat "$dir/lag.down")" = "0:audit:default:$waiting_0 2:audit:default:$waiting_2 2:watcher:watch:$waiting_2"
# shellcheck disable=SC2016  # $1 is bash -c's
check "node B down: act.lag_by_partition() warns that it left 1 and 3 out, each error naming its database" \
  bash -c 'grep -q "^WARNING: *act.lag_by_partition: partition 1, 3 left out" <<<"$1" &&
           grep -q "partition 1: .*\[act_p1\]" <<<"$1" && grep -q "partition 3: .*\[act_p3\]" <<<"$1"' _ "$lag_warning"
if [ -n "$exporter_pid" ]; then
  check "node B down: the exporter on the router answers" scrape down
  check "node B down: the exporter has pg_act_partition_up 0 for 1 and 3, no scrape error" \
    test "$(samples down pg_act_partition_up) $(samples down pg_exporter_last_scrape_error)" = \
    "$(printf 'pg_act_partition_up{partition="%s"} %s ' 0 1 1 0 2 1 3 0)pg_exporter_last_scrape_error 0"
  check "node B down: the exporter has the horizons of 0 and 2 alone" \
    test "$(samples down pg_act_horizon)" = "pg_act_horizon{partition=\"0\"} $horizon_0 pg_act_horizon{partition=\"2\"} $horizon_2"
  exporter_errors=$(grep -E 'level=error|Error running query' "$dir/exporter.log")
  check "node B down: the exporter logs no failed query${exporter_errors:+ (below)}" test -z "$exporter_errors"
  [ -n "$exporter_errors" ] && echo "$exporter_errors" >&2
  stop_exporter
fi

# 10. Node B back: the failed commits go through and everything reads back.
start_again b || check "node B starts again" false
check "node B back: act.partitions() reports every partition reachable" \
  test "$(router -c "SELECT bool_and(reachable) FROM act.partitions()")" = t
check "node B back: the failed commits succeed when retried" \
  test "$(router -c "SELECT count(*) FROM attempts a, act.commit(a.stream, '[{\"name\": \"DuringOutage\"}]') AS e
                      WHERE NOT a.committed")" = "$(router -c "SELECT count(*) FROM attempts WHERE NOT committed")"
check "node B back: each outage stream reads back with its one event" \
  test "$(router -c "SELECT count(*) FROM attempts a, act.query(a.stream) AS e WHERE e.version = 0")" = 40

# 11. Moving partition 1 from node B to node A: the router stops sending to
#     it, its database is dumped and restored on A, the router's p1 points
#     at the copy.
bindir=$(pg_config --bindir)
router -c "ALTER SERVER act_cluster OPTIONS (SET p1 'host=$dir/nowhere dbname=act_p1')"
p1_stream=$(awk '$2 == 1 { last = $1 } END { print last }' "$dir/expected")
check "moving: with p1 fenced off, the router's calls for partition 1 fail" \
  test "$(sqlstate router router "SELECT act.version('$p1_stream')")" != ok
# shellcheck disable=SC1091
check "moving: act_p1 dumped from node B and restored on node A" \
  bash -c "(source '$dir/b/env' && '$bindir/pg_dump' --format=custom --file='$dir/act_p1.dump' act_p1) &&
           (source '$dir/a/env' && createdb act_p1 &&
            '$bindir/pg_restore' --exit-on-error --dbname=act_p1 '$dir/act_p1.dump')"
hosts[1]=a
router -c "ALTER SERVER act_cluster OPTIONS (SET p1 '$(conninfo 1)')"
left_on_b=$(on b act_p1 -c 'SELECT count(*) FROM act.events')
check "moving: the router reaches partition 1 on node A without a restart" \
  test "$(router -c "SELECT max(id) FROM act.commit('$p1_stream', '[{\"name\": \"Moved\"}]')")" = $((left_on_b + 1))
check "moving: the commit is in the copy on A, the old database on B is as it was" \
  test "$(on a act_p1 -c 'SELECT count(*) FROM act.events')/$(on b act_p1 -c 'SELECT count(*) FROM act.events')" = \
  "$((left_on_b + 1))/$left_on_b"
check "moving: the copy is still partition 1 of 4" \
  test "$(on a act_p1 -c "SELECT partition || ' of ' || partitions FROM act.hosted_partition()")" = "1 of 4"

# 12. Calls over several partitions, now that all are up.
streams_stored=$(for p in 0 1 2 3; do
  on "$(node_of $p)" "act_p$p" -c 'SELECT count(DISTINCT stream) FROM act.events'
done | awk '{ n += $1 } END { print n }')
check "act.verify() through the router verifies every stream of every partition" \
  test "$(router -c "SELECT count(*) FILTER (WHERE valid) || ' ' || count(*) FROM act.verify()")" = \
  "$streams_stored $streams_stored"
check "act.query_stats of streams in three partitions: one row each, in stream order" \
  test "$(router -c "SELECT string_agg(stream || '=' || count, ' ') FROM act.query_stats('[\"ticket-7\", \"race\", \"ticket-1\", \"ticket-2\", \"Zürich-5\"]', '{\"count\": true}')")" = \
  "Zürich-5=1 race=$won ticket-1=11 ticket-2=1 ticket-7=1"
check "act.prioritize through the router: the source-less target's row in each partition" \
  test "$(router -c "SELECT act.prioritize('[\"audit\"]', 5)")" = 4
check "act.commit_by_key through the router finds a keyed commit" \
  test "$(router -c "SELECT count(*) FROM act.commit('Zürich-10', '[{\"name\": \"Keyed\"}]', '{\"idempotency_key\": \"k-1\"}')" \
    -c "SELECT string_agg(name, ',') FROM act.commit_by_key('Zürich-10', 'k-1')")" = "$(printf '1\nKeyed')"
for p in 0 1 2 3; do
  check "act_p$p: ids still gapless at the end" \
    test "$(on "$(node_of $p)" "act_p$p" -c 'SELECT count(*) = max(id) FROM act.events')" = t
done
# Last: a truncate deletes events, so the ids are no longer gapless.
# ticket-1 is in partition 3 (node B), ticket-7 in 0 (node A).
check "act.truncate through the router: targets of two partitions, each seeded" \
  test "$(router -c "SELECT string_agg(stream || ':' || name, ' ' ORDER BY stream)
                       FROM act.truncate('[{\"stream\": \"ticket-1\", \"snapshot\": {}}, {\"stream\": \"ticket-7\"}]')")" = \
  "ticket-1:__snapshot__ ticket-7:__tombstone__"
check "act.truncate through the router: both streams now hold their seed alone" \
  test "$(router -c "SELECT count(*) FROM act.query('ticket-1', with_snaps => true)" \
                 -c "SELECT count(*) FROM act.query('ticket-7', with_snaps => true)")" = "$(printf '1\n1')"

# --- The router's SQL path under churn (build/partition_router_stress) ---
# Committers race on streams of every partition through act.commit while
# drainers walk the partitions with act.claim_events_p and act.ack_p and are
# SIGKILLed in the middle of batches, all through the router database alone
# (test/partitions/router_stress.cpp). Each property it prints ("ok ..." or
# "FAIL ...": nothing lost, nothing twice, the acks against the watermarks and
# the partitions' counters, per-stream and per-partition order, watermarks at
# the horizons, the churn itself) counts as a check; a run that ends badly
# without naming a property counts once. It must be alone on the partitions:
# nothing else commits or acknowledges from here until section 13, whose
# databases are its own.
router_stress() {
  local out="$dir/router_stress.out" status reported line
  [ -x build/partition_router_stress ] ||
    { check "build/partition_router_stress is built (scripts/build.sh --with=tests, CMake option ACT_BUILD_TESTS)" false; return; }
  # shellcheck disable=SC1091
  (source "$dir/router/env" && timeout 120 build/partition_router_stress dbname=router) >"$out" 2>&1
  status=$?
  reported=0
  while IFS= read -r line; do
    case $line in
      "ok "*) check "router stress: ${line#ok }" true ;;
      "FAIL "*) check "router stress: ${line#FAIL }" false ;;
      *) continue ;;
    esac
    reported=$((reported + 1))
  done <"$out"
  if [ "$status" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
    check "build/partition_router_stress ends with status 0, not $status" false
  elif [ "$reported" -eq 0 ]; then
    check "build/partition_router_stress reports its properties" false
  fi
  if [ "$status" -ne 0 ]; then
    echo "--- $suite: partition_router_stress:" >&2
    cat "$out" >&2
  fi
}
router_stress
# --- end of the router's SQL path under churn ---

# 13. The C++ client routing itself (build/partition_tests, GoogleTest) on
#     partition databases of its own (act_c0 .. act_c3, even ones on node A,
#     odd ones on B): the subscriptions the SQL checks left with work would
#     hold back its closes. Each test counts as a check here; then node B
#     stopped around its node-down tests alone.
partition_tests() {  # partition_tests LABEL [gtest arguments...]
  local label=$1 out="$dir/partition_tests.$1.out" status ok bad
  shift
  [ -x build/partition_tests ] || { check "build/partition_tests is built (scripts/build.sh --with=tests, CMake option ACT_BUILD_TESTS)" false; return; }
  build/partition_tests --gtest_brief=1 "$@" >"$out" 2>&1
  status=$?
  ok=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) tests\{0,1\}\..*/\1/p' "$out")
  # --gtest_brief prints each failed or skipped test once, and no count of them.
  bad=$(grep -c '^\[  \(FAILED\|SKIPPED\) *\] [A-Za-z]' "$out")
  ok=${ok:-0}
  # A crash, or a run that ran nothing, still counts once.
  if [ "$bad" -eq 0 ] && { [ "$status" -ne 0 ] || [ "$ok" -eq 0 ]; }; then bad=1; fi
  passed=$((passed + ok))
  failed=$((failed + bad))
  if [ "$bad" -gt 0 ]; then
    echo "--- $suite: partition_tests ($label):" >&2
    cat "$out" >&2
  fi
}
client_hosts=(a b a b)
client_conninfo() {  # client_conninfo PARTITION
  # shellcheck disable=SC1090
  (source "$dir/${client_hosts[$1]}/env" && echo "host=$PGHOST port=$PGPORT dbname=act_c$1 user=postgres")
}
for p in 0 1 2 3; do
  node=${client_hosts[$p]}
  # shellcheck disable=SC1090
  (source "$dir/$node/env" && createdb "act_c$p") &&
    on "$node" "act_c$p" -o /dev/null -c 'CREATE EXTENSION pg_act' -c "SELECT act.set_partition($p, $partitions)" ||
    check "act_c$p is set up on node $node as partition $p" false
done
ACT_PARTITIONS=$(for p in 0 1 2 3; do printf '%s;' "$(client_conninfo $p)"; done)
export ACT_PARTITIONS
# Read models over all partitions live in a database of their own: a plain
# one, on the router's cluster (it needs no pg_act).
# shellcheck disable=SC1091
ACT_READ_MODEL=$(source "$dir/router/env" && createdb act_read && echo "host=$PGHOST port=$PGPORT dbname=act_read user=postgres") ||
  check "the read model database act_read is created" false
export ACT_READ_MODEL
partition_tests routed --gtest_filter='-NodeDownTest.*'
scripts/cluster.sh stop "$dir/b" || check "node B stops without a crash in its log" false
ACT_PARTITIONS_DOWN=$(for p in 0 1 2 3; do [ "${client_hosts[$p]}" = b ] && printf '%s,' $p; done) \
  partition_tests node-down --gtest_filter='NodeDownTest.*'

for node in router a; do
  scripts/cluster.sh stop "$dir/$node" || check "node $node stops without a crash in its log" false
done
summary
