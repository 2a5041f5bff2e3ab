#include "support.hpp"

#include <atomic>
#include <chrono>

namespace bench {

void measure(benchmark::State& state, const std::function<void()>& op, const Measure& options) {
  for (int i = 0; i < options.warmup; ++i) {
    if (options.prepare) options.prepare();
    op();
  }
  Samples samples;
  for (auto _ : state) {
    if (options.prepare) {
      state.PauseTiming();
      options.prepare();
      state.ResumeTiming();
    }
    const auto start = Clock::now();
    op();
    samples.add(milliseconds_since(start));
  }
  const nlohmann::json summary = samples.summary();
  for (const char* name : {"p50_ms", "p95_ms", "ops_per_s"}) state.counters[name] = summary[name].get<double>();
  if (!options.item.empty()) state.counters[options.item + "_per_s"] = summary["ops_per_s"].get<double>() * options.items;
}

std::shared_ptr<act::ConnectionPool> pool(std::size_t connections) {
  auto created = std::make_shared<act::ConnectionPool>("", act::PoolOptions{connections});
  act::ensure_extension(*created);
  return created;
}

std::string stream_name(const std::string& kind) {
  static const auto run = std::chrono::system_clock::now().time_since_epoch().count();
  static std::atomic<long> sequence{0};
  return kind + "-" + std::to_string(run) + "-" + std::to_string(++sequence);
}

const act::Actor& actor() {
  static const act::Actor bench{"bench", "Bench"};
  return bench;
}

const act::State<Counter>& counter_state() {
  static const auto counter = act::state<Counter>("Counter")
                                  .patch<Incremented>("Incremented",
                                                      [](const Incremented& event, Counter state) {
                                                        state.count += event.by;
                                                        return state;
                                                      })
                                  .on<Increment>("increment")
                                  .retries(1000, act::Backoff{std::chrono::milliseconds(0)})
                                  .emit([](const Increment& action, const Counter&) { return Incremented{action.by}; })
                                  .build();
  return counter;
}

}  // namespace bench
