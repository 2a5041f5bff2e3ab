# The sweeps of a bench run (bench/suites/sweep_*.sh) as the Markdown tables
# of PERFORMANCE.md: each pg_act figure, its floor from the same run, and
# their ratio. jq -r -f bench/sweep_table.jq build/bench/results.json
def thousands: tostring | until(test("^[0-9]{4}") | not; sub("(?<a>[0-9])(?<b>[0-9]{3})(?<c>[,.]|$)"; "\(.a),\(.b)\(.c)"));
def count: round | thousands;
def ms: . * 100 | round / 100 | tostring;
def ratio: . * 100 | round / 100 | tostring + "x";
def point($series; $mode; $x): first(.scenarios[] | select(.mode == $mode and (.scenario | startswith($series + "/"))
                                                        and (.subscriptions // .clients) == $x));
def modes($series): [.scenarios[] | select(.scenario | startswith($series + "/")) | .mode] | unique;
def xs($series): [.scenarios[] | select(.scenario | startswith($series + "/")) | .subscriptions // .clients] | unique;
# rate ACT FLOOR: "act / floor = ratio" of ops/s, or "" where the run has no such point.
def rate($act; $floor): if $act and $floor then "\($act.ops_per_s | count) / \($floor.ops_per_s | count) = \($act.ops_per_s / $floor.ops_per_s | ratio)" else "" end;
def row(cells): "| " + (cells | join(" | ")) + " |";
. as $run
| (modes("sql/commit_sweep/new_stream") | map(.[0:1] | ascii_upcase)) as $m
| "Commits/s, `act.commit` / plain INSERT of the same row = ratio:\n",
  row(["clients"] + ($m | map("\(.) new stream", "\(.) stream per client"))),
  row(["---"] + ($m | map("---", "---"))),
  (xs("sql/commit_sweep/new_stream")[] as $x
   | row(["\($x)"] + [modes("sql/commit_sweep/new_stream")[] as $mode | ("new_stream", "stream_per_client") as $t
                      | $run | rate(point("sql/commit_sweep/\($t)"; $mode; $x); point("sql/insert_sweep/\($t)"; $mode; $x))])),
  "\nEvents/s of a drain, `act.claim_events` / plain SQL = ratio:\n",
  row(["workers"] + (modes("sql/drain_sweep/claim_events") | map(.[0:1] | ascii_upcase))),
  row(["---"] + (modes("sql/drain_sweep/claim_events") | map("---"))),
  (xs("sql/drain_sweep/claim_events")[] as $x
   | row(["\($x)"] + [modes("sql/drain_sweep/claim_events")[] as $mode
                      | $run | rate(point("sql/drain_sweep/claim_events"; $mode; $x); point("sql/drain_sweep/plain"; $mode; $x))])),
  "\nA claim of up to 10 streams with work, p50 / p95 ms, `act.claim` and plain SQL:\n",
  row(["subscriptions", "mode", "`act.claim`", "plain SQL", "p50 ratio"]),
  row(["---", "---", "---", "---", "---"]),
  (modes("sql/claim_sweep/claim")[] as $mode | xs("sql/claim_sweep/claim")[] as $x
   | ($run | point("sql/claim_sweep/claim"; $mode; $x)) as $act | ($run | point("sql/claim_sweep/plain"; $mode; $x)) as $floor
   | select($act and $floor)
   | row(["\($x | count)", ($mode[0:1] | ascii_upcase), "\($act.p50_ms | ms) / \($act.p95_ms | ms)",
          "\($floor.p50_ms | ms) / \($floor.p95_ms | ms)", ($act.p50_ms / $floor.p50_ms | ratio)]))
