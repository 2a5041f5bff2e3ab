// Reaction latency (commit -> handler start) idle, at 100 and at 1,000
// commits/s, and the drain throughput of reactions, through the client
// library's workers. Prints one record per line (bench/stats.hpp).
// Usage: reaction_bench [quick] (connection from PG* variables; the database
// needs CREATE EXTENSION rights or pg_act installed).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "act/act.hpp"
#include "stats.hpp"

namespace {

using bench::Clock;
using namespace std::chrono_literals;

struct Counter {
  int ticks = 0;
};
struct Ticked {
  int n = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Counter, ticks)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Ticked, n)
using Tick = Ticked;

const act::Actor kBench{"bench", "bench"};

act::State<Counter> counter_state() {
  return act::state<Counter>("BenchCounter")
      .patch<Ticked>("Ticked",
                     [](const Ticked&, Counter counter) {
                       ++counter.ticks;
                       return counter;
                     })
      .on<Tick>("tick")
      .emit([](const Tick& tick, const Counter&) { return Ticked{tick.n}; })
      .build();
}

// When each tick was sent to commit (written by the writers, read by the
// handler thread, hence atomics), and how long until its handler started.
class Stopwatch {
 public:
  explicit Stopwatch(std::size_t samples) : started_(samples), waited_(samples) {
    for (auto& slot : waited_) slot = -1;
  }
  void start(int n) { started_[index(n)] = Clock::now().time_since_epoch().count(); }
  void handled(int n) {
    const auto now = Clock::now().time_since_epoch().count();
    const auto waited = static_cast<double>(now - started_[index(n)]) / 1e6;
    double unset = -1;
    if (waited_[index(n)].compare_exchange_strong(unset, waited)) ++handled_;
  }
  int handled_count() const { return handled_.load(); }
  bench::Samples samples() const {
    bench::Samples samples;
    for (const auto& waited : waited_)
      if (waited >= 0) samples.add(waited);
    return samples;
  }

 private:
  static std::size_t index(int n) { return static_cast<std::size_t>(n); }
  std::vector<std::atomic<Clock::rep>> started_;
  std::vector<std::atomic<double>> waited_;
  std::atomic<int> handled_{0};
};

bool wait_until(const std::function<bool()>& done, std::chrono::seconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(100us);
  }
  return true;
}

// Commits `count` ticks round-robin over 64 streams, `rate` per second (0:
// one at a time, each after the previous one's handler started), from
// writer threads with a pool of their own (a commit takes longer than 1 ms,
// so 1,000/s needs several in flight); a worker app with one same-stream
// reaction times them. Its target is one per source stream (each new one
// found by a correlate pass first) or, with `fixed_target`, one stream the
// database marks at commit (the reaction starts on the wake-up alone).
void latency(const std::string& run, const std::string& scenario, int count, int rate, bool fixed_target = false) {
  const auto counter = counter_state();
  Stopwatch stopwatch(static_cast<std::size_t>(count));
  const std::string prefix = "lat-" + run + "-" + scenario + "-";
  const auto time = [&](const Ticked& ticked, act::ReactionContext& context) {
    // A fixed target reads every stream's ticks, earlier runs' too.
    if (context.event().stream.starts_with(prefix)) stopwatch.handled(ticked.n);
  };
  auto worker = fixed_target ? act::app("").with(counter).on<Ticked>("Ticked").to(prefix + "target").handle("time", time).build()
                             : act::app("")
                                   .with(counter)
                                   .on<Ticked>("Ticked")
                                   .to([prefix](const act::Committed& event) -> std::optional<act::Route> {
                                     if (!event.stream.starts_with(prefix)) return std::nullopt;
                                     return act::Route{"proj-" + event.stream, event.stream};
                                   })
                                   .handle("time", time)
                                   .build();
  worker.start();
  const int writers = rate > 200 ? 8 : 1;
  auto writer = act::app("", act::PoolOptions{static_cast<std::size_t>(writers)}).with(counter).build();
  // The action's own round trip (its commit's WAL flush among it) is part
  // of every sample: reported alone next to them.
  std::mutex actions_lock;
  bench::Samples actions;
  const auto commit = [&](int n) {
    stopwatch.start(n);
    const auto sent = Clock::now();
    writer.do_action("tick", {prefix + std::to_string(n % 64), kBench, {}}, Tick{n});
    const double took = bench::milliseconds_since(sent);
    const std::lock_guard guard(actions_lock);
    actions.add(took);
  };
  const auto began = Clock::now();
  if (rate == 0) {
    for (int n = 0; n < count; ++n) {
      commit(n);
      wait_until([&] { return stopwatch.handled_count() > n; }, 10s);
    }
  } else {
    // Writer w sends ticks w, w + writers, ... each at its slot on one schedule.
    const auto period = std::chrono::nanoseconds(1'000'000'000 / rate);
    std::vector<std::jthread> threads;
    for (int w = 0; w < writers; ++w) {
      threads.emplace_back([&, w] {
        for (int n = w; n < count; n += writers) {
          std::this_thread::sleep_until(began + period * n);
          commit(n);
        }
      });
    }
  }
  const double sending = bench::milliseconds_since(began) / 1000;
  const bool complete = wait_until([&] { return stopwatch.handled_count() >= count; }, 60s);
  worker.shutdown();
  nlohmann::json fields = stopwatch.samples().summary();
  fields["ops_per_s"] = count / sending;
  fields.update({{"ops", "commits sent"}, {"latency_of", "commit sent -> handler started"}, {"target_rate_per_s", rate}, {"commits", count}, {"writers", writers}, {"complete", complete},
                 {"max_ms", stopwatch.samples().max()}, {"target", fixed_target ? "fixed" : "one per stream"},
                 {"do_action_p50_ms", actions.percentile(0.50)}});
  bench::print_record("reaction/latency_" + scenario, fields);
}

// Commits `events` events over `streams` streams straight through the store,
// then times one app draining them all on one thread, pass by pass
// (correlate + one drain cycle), as settle would.
void throughput(const std::string& run, int streams, int events) {
  const std::string prefix = "thr-" + run + "-";
  auto pool = std::make_shared<act::ConnectionPool>("", act::PoolOptions{4});
  act::Store store(pool);
  const int per_stream = events / streams;
  for (int s = 0; s < streams; ++s) {
    std::vector<act::Message> batch;
    for (int i = 0; i < per_stream; ++i) batch.push_back({"Ticked", {{"n", i}}, std::nullopt});
    store.commit(prefix + std::to_string(s), batch);
  }
  std::atomic<long> handled{0};
  const act::Lane lane{"bench-" + run, 30s, 10, 1000};
  auto app = act::app(pool)
                 .with(counter_state())
                 .lane(lane)
                 .on<Ticked>("Ticked")
                 .to([prefix, lane](const act::Committed& event) -> std::optional<act::Route> {
                   if (!event.stream.starts_with(prefix)) return std::nullopt;
                   return act::Route{"sink-" + event.stream, event.stream, 0, lane.name};
                 })
                 .handle("count", [&](const Ticked&, act::ReactionContext&) { ++handled; })
                 .build();
  bench::Samples passes;
  const auto started = Clock::now();
  for (int idle = 0; handled < per_stream * streams && idle < 100;) {
    const auto pass = Clock::now();
    const bool found = app.correlate().subscribed > 0;
    const bool drained = app.drain().progressed();
    passes.add(bench::milliseconds_since(pass));
    idle = found || drained ? 0 : idle + 1;
  }
  const double seconds = bench::milliseconds_since(started) / 1000;
  nlohmann::json fields = passes.summary();
  fields["ops_per_s"] = static_cast<double>(handled) / seconds;
  fields.update({{"ops", "events"}, {"latency_of", "a pass: correlate + one drain cycle"}, {"streams", streams}, {"events", per_stream * streams}, {"handled", handled.load()}, {"seconds", seconds}});
  bench::print_record("reaction/drain_" + std::to_string(streams) + "_streams", fields);
}

}  // namespace

int main(int argc, char** argv) try {
  const bool quick = argc > 1 && std::strcmp(argv[1], "quick") == 0;
  act::ConnectionPool setup("");
  act::ensure_extension(setup);
  const std::string run = std::to_string(std::chrono::system_clock::now().time_since_epoch().count() % 100000000);
  latency(run, "idle", quick ? 50 : 300, 0);
  latency(run, "idle_fixed_target", quick ? 50 : 300, 0, true);
  latency(run, "100_per_s", quick ? 100 : 500, 100);
  latency(run, "1000_per_s", quick ? 1000 : 3000, 1000);
  throughput(run, 100, quick ? 2000 : 20000);
  return 0;
} catch (const std::exception& error) {
  std::cerr << "reaction_bench: " << error.what() << "\n";
  return 1;
}
