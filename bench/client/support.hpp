#pragma once
// What the client benchmarks share: the timing loop (untimed warm-up, one
// sample per iteration, p50/p95/ops_per_s as counters), iteration counts for
// full and quick runs, pools, run-unique stream names and the Counter state.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "act/act.hpp"
#include "stats.hpp"

namespace bench {

// BENCH_QUICK=1 runs each scenario for `quick` iterations instead of `full`.
inline benchmark::IterationCount iterations(benchmark::IterationCount full, benchmark::IterationCount quick) {
  const char* flag = std::getenv("BENCH_QUICK");
  return flag && *flag && std::string(flag) != "0" ? quick : full;
}

struct Measure {
  int warmup = 10;                  // untimed calls before the first sample
  double items = 1;                 // units of work in one call (commits, events...)
  std::string item;                 // their name: reported as <item>_per_s
  std::function<void()> prepare{};  // runs before every call, outside the timing
};

// Times op() once per benchmark iteration and reports p50_ms, p95_ms and
// ops_per_s (1000 / mean) as counters.
void measure(benchmark::State& state, const std::function<void()>& op, const Measure& options = {});

// A pool of `connections` on the PG* environment, with pg_act created.
std::shared_ptr<act::ConnectionPool> pool(std::size_t connections);

// "<kind>-<run>-<n>": unique across runs on one database.
std::string stream_name(const std::string& kind);

const act::Actor& actor();

struct Counter {
  int count = 0;
};
struct Incremented {
  int by = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Counter, count)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Incremented, by)
using Increment = Incremented;

// Counter: increment -> Incremented; a conflict is retried at once until it lands.
const act::State<Counter>& counter_state();

}  // namespace bench
