#!/usr/bin/env bash
# shellcheck disable=SC2015  # "X && pass || fail": pass always succeeds
# The worker recipes of docs/workers.md, against the cluster the PG*
# environment points at:
# - its psql examples run in a fresh database and print exactly the text
#   that follows them (test/run-doc-examples.sh): the SQL worker blocks the
#   failing mailer after three attempts and keeps the read model exact;
# - its Python worker (the page's python block, run as it stands), two of
#   them side by side while orders are still being committed: every Added
#   event lands in order_totals exactly once, the mailer is blocked after
#   exactly three attempts between them, and its outbox holds exactly the
#   mails of the batches it acked; and when an operator releases a stream
#   under a worker and another claims it, the first one's ack finds the
#   lease gone and its writes roll back, so the totals stay exact.
# Details go to stderr; the last line on stdout is "PASSED FAILED".
#   test/run-workers.sh WORK
set -uo pipefail
work=$1
cd "$(dirname "$0")/.." || { echo "0 1"; exit 0; }
doc=docs/workers.md
dir="$work/workers"
mkdir -p "$dir"

passed=0
failed=0
fail() { echo "FAIL: $*" >&2; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }

# 1. The psql examples.
read -r p f < <(test/run-doc-examples.sh "$work" "$doc")
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))
[ "${p:-0}" -gt 0 ] || fail "$doc: no psql example ran"

# 2. The Python worker. Debian's python3-psycopg2 serves the system
#    interpreter; a python3 of a virtualenv or pyenv earlier on PATH may
#    lack it, so every python3 on PATH is tried in turn.
python=""
for candidate in $(type -ap python3); do
  if "$candidate" -c 'import psycopg2' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  fail "no python3 can import psycopg2 (scripts/deps.sh installs python3-psycopg2)"
  echo "$passed $failed"
  exit 0
fi
awk '/^```python$/ { on = 1; next } /^```/ { on = 0 } on' "$doc" >"$dir/worker.py"
[ -s "$dir/worker.py" ] && pass || fail "$doc: no python block"

db=workers_py_$$
cleanup() { dropdb --if-exists "$db" >/dev/null 2>&1; }
trap cleanup EXIT
sql() { psql -qXAt -v ON_ERROR_STOP=1 -d "$db" -c "$1"; }
if ! createdb "$db" || ! sql "CREATE EXTENSION pg_act" >&2; then
  fail "cannot create database $db with pg_act"
  echo "$passed $failed"
  exit 0
fi
# The page's tables and subscriptions; order-77's address has no @.
sql "CREATE TABLE order_totals (order_id text PRIMARY KEY, total numeric NOT NULL, items int NOT NULL);
     CREATE TABLE outbox (event_id bigint PRIMARY KEY, email text NOT NULL CHECK (email LIKE '%@%'));
     SELECT count(*) FROM act.subscribe('[
       {\"stream\": \"order_totals\", \"source\": \"^order-\", \"names\": [\"Added\"], \"lane\": \"docs\"},
       {\"stream\": \"mailer\", \"source\": \"^order-\", \"names\": [\"Paid\"], \"lane\": \"docs\"}]')" >/dev/null
# commit_orders FIRST LAST: orders FIRST..LAST, two or three items and a payment each.
commit_orders() {
  sql "SELECT count(*) FROM generate_series($1, $2) i,
         act.commit('order-' || i, jsonb_build_array(
           jsonb_build_object('name', 'Added', 'data', jsonb_build_object('amount', i % 7 + 1)),
           jsonb_build_object('name', 'Added', 'data', jsonb_build_object('amount', i % 5 + 10))) ||
           CASE WHEN i % 3 = 0 THEN '[{\"name\": \"Added\", \"data\": {\"amount\": 100}}]'::jsonb ELSE '[]' END ||
           jsonb_build_array(jsonb_build_object('name', 'Paid', 'data',
             jsonb_build_object('email', CASE WHEN i = 177 THEN 'nobody' ELSE 'buyer-' || i || '@example.org' END))))" \
    >/dev/null
}
commit_orders 1 150
export PGDATABASE=$db
pids=""
for worker in py-1 py-2; do
  timeout -k 5 120 "$python" "$dir/worker.py" --worker "$worker" --idle-exit 3 2>"$dir/$worker.err" &
  pids="$pids $!"
done
# More orders while the workers run, order-177 (the bad address) among them.
for first in 151 181 211 241; do
  commit_orders "$first" $((first + 29))
done
for pid in $pids; do
  wait "$pid" && pass || fail "a worker exited with status $? ($(cat "$dir"/py-*.err))"
done
cat "$dir"/py-*.err >&2

# The read model: each Added event applied exactly once.
diff_rows=$(sql "SELECT count(*) FROM (
  (SELECT order_id, total, items FROM order_totals
   EXCEPT SELECT stream, sum((data ->> 'amount')::numeric), count(*) FROM act.events WHERE name = 'Added' GROUP BY stream)
  UNION ALL
  (SELECT stream, sum((data ->> 'amount')::numeric), count(*) FROM act.events WHERE name = 'Added' GROUP BY stream
   EXCEPT SELECT order_id, total, items FROM order_totals)) d")
[ "$diff_rows" = 0 ] && pass || fail "order_totals differs from the log in $diff_rows rows"
[ "$(sql "SELECT count(*) FROM order_totals")" = 270 ] && pass || fail "order_totals does not hold the 270 orders"
[ "$(sql "SELECT at = (SELECT max(id) FROM act.events WHERE name = 'Added') AND NOT blocked
          FROM act.subscriptions WHERE stream = 'order_totals'")" = t ] &&
  pass || fail "order_totals did not reach the last Added event: $(sql "SELECT s::text FROM act.subscriptions s")"

# The mailer: blocked after exactly three attempts, at the batch holding order-177.
[ "$(sql "SELECT blocked AND retry = 2 AND error LIKE '%outbox_email_check%'
          FROM act.subscriptions WHERE stream = 'mailer'")" = t ] &&
  pass || fail "mailer is not blocked after its third attempt: $(sql "SELECT s::text FROM act.subscriptions s WHERE stream = 'mailer'")"
attempts=$(cat "$dir"/py-*.err | grep -c '^py-[12]: mailer attempt [0-9]* failed')
[ "$attempts" = 3 ] && pass || fail "the mailer's handler failed $attempts times, not 3"
for n in 1 2 3; do
  grep -q "^py-[12]: mailer attempt $n failed" "$dir"/py-*.err && pass || fail "no failed attempt $n of the mailer"
done
[ "$(sql "SELECT at < (SELECT id FROM act.events WHERE stream = 'order-177' AND name = 'Paid')
          FROM act.subscriptions WHERE stream = 'mailer'")" = t ] && pass || fail "the mailer went past order-177"
# The outbox: exactly the Paid events up to the mailer's watermark, none of a failed batch.
[ "$(sql "SELECT (SELECT array_agg(event_id ORDER BY event_id) FROM outbox) IS NOT DISTINCT FROM
                 (SELECT array_agg(id ORDER BY id) FROM act.events
                   WHERE name = 'Paid' AND id <= (SELECT at FROM act.subscriptions WHERE stream = 'mailer'))")" = t ] &&
  pass || fail "the outbox does not hold exactly the mails up to the mailer's watermark"
[ "$(sql "SELECT count(*) > 0 FROM outbox")" = t ] && pass || fail "the outbox is empty: no batch before order-177"

# A lost lease: while the page's worker py-victim handles order_totals, an
# operator releases it and py-thief claims it (py-thief's writes then wait
# for py-victim's). py-victim's ack must find the lease gone and roll its
# writes back, so the totals still hold every event once.
sql "SELECT count(*) FROM generate_series(1, 5) i, act.commit('order-' || i, '[{\"name\": \"Added\", \"data\": {\"amount\": 1000}}]')" >/dev/null
cat >"$dir/lost_lease.py" <<'PY'
import sys
import threading
import time

import psycopg2

sys.path.insert(0, sys.argv[1])
import worker  # noqa: E402  (the page's python block)

handle = worker.handle
thief = []


def stalled_handle(cur, target, events):
    handle(cur, target, events)
    if thief:
        return
    admin = psycopg2.connect("")
    admin.autocommit = True
    with admin.cursor() as cur2:
        cur2.execute("SELECT act.release('[\"order_totals\"]')")
        thief.append(threading.Thread(target=worker.cycle, args=(psycopg2.connect(""), "py-thief")))
        thief[0].start()
        for _ in range(200):  # until py-thief's claim has committed
            cur2.execute("SELECT leased_by FROM act.subscriptions WHERE stream = 'order_totals'")
            if cur2.fetchone()[0] == "py-thief":
                return
            time.sleep(0.05)
    raise RuntimeError("py-thief never claimed order_totals")


worker.handle = stalled_handle
worker.cycle(psycopg2.connect(""), "py-victim")
thief[0].join()
PY
timeout -k 5 60 "$python" "$dir/lost_lease.py" "$dir" 2>"$dir/lost-lease.err" && pass || fail "the lost-lease run failed: $(cat "$dir/lost-lease.err")"
cat "$dir/lost-lease.err" >&2
grep -q '^py-victim: lost the lease on order_totals' "$dir/lost-lease.err" && pass || fail "py-victim did not see its lease lost"
diff_rows=$(sql "SELECT count(*) FROM (
  (SELECT order_id, total, items FROM order_totals
   EXCEPT SELECT stream, sum((data ->> 'amount')::numeric), count(*) FROM act.events WHERE name = 'Added' GROUP BY stream)
  UNION ALL
  (SELECT stream, sum((data ->> 'amount')::numeric), count(*) FROM act.events WHERE name = 'Added' GROUP BY stream
   EXCEPT SELECT order_id, total, items FROM order_totals)) d")
[ "$diff_rows" = 0 ] && pass || fail "after the lost lease, order_totals differs from the log in $diff_rows rows"
[ "$(sql "SELECT at = (SELECT max(id) FROM act.events WHERE name = 'Added') AND leased_by IS NULL
          FROM act.subscriptions WHERE stream = 'order_totals'")" = t ] &&
  pass || fail "py-thief did not ack order_totals: $(sql "SELECT s::text FROM act.subscriptions s WHERE stream = 'order_totals'")"

echo "$passed $failed"
