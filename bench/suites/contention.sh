#!/usr/bin/env bash
# 20 writers contending on one seeded stream through SQL, each retrying on
# 40001 (pgbench --max-tries): commits landed per second, attempts per landed
# commit and time to land (first try to landing, p50/p95). Next to it, in the
# same run, a plain INSERT-and-retry loop on a unique (stream, version) key.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
seconds=$(bench_pick 10 2)
bench_database bench_contention
psql -X -q <<'SQL' >/dev/null
SELECT count(*) FROM act.commit('contended', (SELECT jsonb_agg(jsonb_build_object('name', 'Seeded'))
                                              FROM generate_series(1, 100)));
CREATE TABLE plain_contended (stream text, version int, name text, data jsonb, PRIMARY KEY (stream, version));
INSERT INTO plain_contended SELECT 'contended', v, 'Seeded', '{}' FROM generate_series(0, 99) v;
CREATE FUNCTION plain_contended_append(stream text, expected int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plain_contended VALUES (stream, expected + 1, 'Incremented', '{}') ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'version % of % is taken', expected + 1, stream USING ERRCODE = 'serialization_failure';
  END IF;
END $$;
SQL

# contend SCENARIO SCRIPT: one pgbench run of 20 writers, one JSON record.
contend() {
  local scenario=$1 script=$2 log
  log=$(mktemp -d "$BENCH_WORK/contention.XXXXXX")
  (cd "$log" && pgbench -n -M prepared -c 20 -j 2 -T "$seconds" --max-tries=1000 -l \
     -f "$BENCH_ROOT/bench/pgbench/$script.sql" >out.txt 2>&1) || { cat "$log/out.txt" >&2; exit 1; }
  local landed retries tps p50 p95
  landed=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$log/out.txt")
  retries=$(sed -n 's/^total number of retries: \([0-9]*\).*/\1/p' "$log/out.txt")
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$log/out.txt")
  # A log line's third field is the time from the first try to the landing, retries included.
  read -r p50 p95 < <(cat "$log"/pgbench_log.* | awk '{print $3}' | sort -n |
    awk '{ t[NR] = $1 } END { if (NR == 0) { print "null null"; exit }
                              p95 = int(NR * 0.95) + 1; if (p95 > NR) p95 = NR
                              printf "%.3f %.3f\n", t[int(NR * 0.5) + 1] / 1000, t[p95] / 1000 }')
  jq -nc --arg scenario "$scenario" --argjson landed "${landed:-0}" --argjson retries "${retries:-0}" \
     --argjson tps "${tps:-0}" --argjson p50 "$p50" --argjson p95 "$p95" \
    '{scenario: $scenario, clients: 20, landed: $landed, ops_per_s: $tps, p50_ms: $p50, p95_ms: $p95,
      latency_of: "time to land, retries included",
      attempts_per_landed: (if $landed > 0 then (($landed + $retries) / $landed) else null end)}'
  rm -rf "$log"
}

contend sql/contention/20_writers_one_stream commit_contended
contend sql/contention/20_writers_one_stream_plain_insert insert_contended
