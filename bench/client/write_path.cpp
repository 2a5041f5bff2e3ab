// The client write path (PERFORMANCE.md, "The C++ client"), four scenarios:
// do_action on one stream (warm cache, guarded commit), warm load (cache
// hit), cold load replaying 100 events, do_action + load.
#include "support.hpp"

namespace {

act::App& application() {
  static act::App app = act::app(bench::pool(2)).with(bench::counter_state()).build();
  return app;
}

void do_action(benchmark::State& state) {
  act::App& app = application();
  const std::string stream = bench::stream_name("hot");
  bench::measure(state, [&] { app.do_action("increment", {stream, bench::actor(), {}}, bench::Increment{1}); });
}

void load_warm(benchmark::State& state) {
  act::App& app = application();
  const std::string stream = bench::stream_name("warm");
  app.do_action("increment", {stream, bench::actor(), {}}, bench::Increment{1});
  bench::measure(state, [&] { benchmark::DoNotOptimize(app.load(bench::counter_state(), stream)); });
}

void load_cold_100(benchmark::State& state) {
  act::App& app = application();
  const std::string stream = bench::stream_name("cold");
  for (int i = 0; i < 100; ++i) app.do_action("increment", {stream, bench::actor(), {}}, bench::Increment{1});
  bench::measure(
      state,
      [&] {
        if (app.load(bench::counter_state(), stream).state.count != 100) state.SkipWithError("cold load did not replay 100 events");
      },
      {.warmup = 10, .items = 100, .item = "events", .prepare = [&] { app.clear_cache(); }});
}

void do_action_then_load(benchmark::State& state) {
  act::App& app = application();
  const std::string stream = bench::stream_name("rt");
  bench::measure(state, [&] {
    app.do_action("increment", {stream, bench::actor(), {}}, bench::Increment{1});
    benchmark::DoNotOptimize(app.load(bench::counter_state(), stream));
  });
}

}  // namespace

BENCHMARK(do_action)->Name("client/do_action")->Iterations(bench::iterations(200, 40));
BENCHMARK(load_warm)->Name("client/load_warm")->Iterations(bench::iterations(500, 100));
BENCHMARK(load_cold_100)->Name("client/load_cold_100")->Iterations(bench::iterations(100, 20));
BENCHMARK(do_action_then_load)->Name("client/do_action_then_load")->Iterations(bench::iterations(200, 40));
