# Google Benchmark's JSON -> one record per benchmark: the median over
# repetitions when it ran several, else the one run. The counters set by
# bench/client/support.cpp (p50_ms, p95_ms, ops_per_s, ...) become fields.
.benchmarks
| (map(select(.run_type == "aggregate" and .aggregate_name == "median"))) as $medians
| (if ($medians | length) > 0 then $medians else map(select(.run_type == "iteration")) end)[]
| {scenario: (.run_name | sub("/iterations:[0-9]+"; "") | sub("/repeats:[0-9]+"; "")), samples: .iterations}
  + (if .error_occurred then {error: .error_message} else {} end)
  + del(.name, .run_name, .run_type, .family_index, .per_family_instance_index, .repetitions, .repetition_index,
        .threads, .iterations, .real_time, .cpu_time, .time_unit, .aggregate_name, .aggregate_unit,
        .error_occurred, .error_message)
