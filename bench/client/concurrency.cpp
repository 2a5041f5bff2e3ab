// Concurrent commits through the client (PERFORMANCE.md, "The C++ client"):
// 50 actions at once on 50 new streams, and 20 at once on ONE stream that
// already exists, each retried until it lands. The reference orchestrator ran the second
// on a new stream, where nothing conflicts; here the stream is seeded first,
// so all but one writer of each round conflict, and the conflicts are reported.
#include <atomic>

#include "crew.hpp"
#include "support.hpp"

namespace {

constexpr int kStreams = 50;
constexpr int kContenders = 20;

void concurrent_50(benchmark::State& state) {
  bench::Crew crew(kStreams);
  act::App app = act::app(bench::pool(kStreams)).with(bench::counter_state()).build();
  bench::measure(
      state,
      [&] {
        const std::string prefix = bench::stream_name("concurrent");
        crew.run([&](int i) {
          app.do_action("increment", {prefix + "-" + std::to_string(i), bench::actor(), {}}, bench::Increment{1});
        });
      },
      {.warmup = 3, .items = kStreams, .item = "commits"});
}

// Each round on a stream of its own, seeded before the timing: a retry
// reloads the stream, so one stream growing round after round would make
// later rounds slower than earlier ones.
void contended_20(benchmark::State& state) {
  bench::Crew crew(kContenders);
  act::App app = act::app(bench::pool(kContenders)).with(bench::counter_state()).build();
  std::string stream;
  int rounds = 0;
  bench::measure(
      state,
      [&] {
        ++rounds;
        crew.run([&](int) { app.do_action("increment", {stream, bench::actor(), {}}, bench::Increment{1}); });
      },
      {.warmup = 3, .items = kContenders, .item = "commits", .prepare = [&] {
         stream = bench::stream_name("contended");
         app.do_action("increment", {stream, bench::actor(), {}}, bench::Increment{1});
       }});
  const auto conflicts = static_cast<double>(app.stats().conflicts);
  state.counters["conflicts_per_op"] = conflicts / rounds;
  if (conflicts == 0) state.SkipWithError("20 writers on one stream met no conflict");
}

}  // namespace

BENCHMARK(concurrent_50)->Name("client/concurrent_50_streams")->Iterations(bench::iterations(50, 10));
BENCHMARK(contended_20)->Name("client/contended_20_one_stream")->Iterations(bench::iterations(30, 8));
