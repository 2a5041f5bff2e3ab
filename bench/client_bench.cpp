// The client write path: do_action, warm load (cache), cold load replaying
// 100 events, and do_action + load. Google Benchmark; run it with
// --benchmark_format=json. The connection comes from the PG* environment.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>

#include "act/act.hpp"

namespace {

struct Counter {
  int count = 0;
};
struct Incremented {
  int by = 0;
};
struct Increment {
  int by = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Counter, count)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Incremented, by)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Increment, by)

const act::State<Counter>& CounterState() {
  static const auto counter = act::state<Counter>("Counter")
                                  .init([] { return Counter{}; })
                                  .patch<Incremented>("Incremented",
                                                      [](const Incremented& event, Counter state) {
                                                        state.count += event.by;
                                                        return state;
                                                      })
                                  .on<Increment>("increment")
                                  .emit([](const Increment& action, const Counter&) {
                                    return act::events(Incremented{action.by});
                                  })
                                  .build();
  return counter;
}

act::App& Application() {
  static std::shared_ptr<act::ConnectionPool> pool = [] {
    auto created = std::make_shared<act::ConnectionPool>("", act::PoolOptions{2});
    act::ensure_extension(*created);
    return created;
  }();
  static act::App app = act::app(pool).with(CounterState()).build();
  return app;
}

// Streams unique to this run, so repeated runs on one database do not collide.
std::string StreamName(const char* kind) {
  static const auto run = std::chrono::steady_clock::now().time_since_epoch().count();
  static int sequence = 0;
  return std::string(kind) + "-" + std::to_string(run) + "-" + std::to_string(++sequence);
}

const act::Actor kActor{"bench", "Bench"};

void BM_DoAction(benchmark::State& state) {
  act::App& app = Application();
  const std::string stream = StreamName("do");
  for (auto _ : state) app.do_action("increment", {stream, kActor, {}}, Increment{1});
}

void BM_LoadWarm(benchmark::State& state) {
  act::App& app = Application();
  const std::string stream = StreamName("warm");
  app.do_action("increment", {stream, kActor, {}}, Increment{1});
  for (auto _ : state) benchmark::DoNotOptimize(app.load(CounterState(), stream));
}

void BM_LoadCold100(benchmark::State& state) {
  act::App& app = Application();
  const std::string stream = StreamName("cold");
  for (int i = 0; i < 100; ++i) app.do_action("increment", {stream, kActor, {}}, Increment{1});
  for (auto _ : state) {
    state.PauseTiming();
    app.clear_cache();
    state.ResumeTiming();
    const auto loaded = app.load(CounterState(), stream);
    if (loaded.state.count != 100) state.SkipWithError("cold load did not replay 100 events");
  }
}

void BM_DoActionThenLoad(benchmark::State& state) {
  act::App& app = Application();
  const std::string stream = StreamName("round");
  for (auto _ : state) {
    app.do_action("increment", {stream, kActor, {}}, Increment{1});
    benchmark::DoNotOptimize(app.load(CounterState(), stream));
  }
}

// Medians of 5 repetitions: the p50 of each scenario's per-call time.
BENCHMARK(BM_DoAction)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_LoadWarm)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_LoadCold100)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_DoActionThenLoad)->Unit(benchmark::kMicrosecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
