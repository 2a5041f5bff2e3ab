# bench/check.sh's records (each tagged with its repetition) -> for each
# guarded scenario: the median over repetitions of p50 / that repetition's
# calibration p50. $guarded maps scenario -> "insert", "server_cpu" or "cpu".
def median: sort | .[length / 2 | floor];
. as $records
| (map(select(.scenario | startswith("calibration/"))) | map({key: "\(.rep) \(.scenario)", value: .p50_ms}) | from_entries) as $calibration
| [ $guarded | to_entries[] | .key as $scenario | .value as $kind
    | [ $records[] | select(.scenario == $scenario) ] as $runs
    | if ($runs | length) == 0 then error("bench-check: no measurement of \($scenario)") else . end
    | { scenario: $scenario, calibration: $kind, repetitions: ($runs | length),
        p50_ms: ($runs | map(.p50_ms) | median),
        ratio: ($runs | map(.p50_ms / $calibration["\(.rep) calibration/\($kind)"]) | median) } ]
