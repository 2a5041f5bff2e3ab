// Reaction latency (commit -> handler start, p50/p95) idle and at a steady
// commit rate, and drain throughput, through the client library's workers.
// Prints one JSON object. Usage: reaction_bench (connection from PG* variables;
// the database needs CREATE EXTENSION rights or pg_act installed).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "act/act.hpp"

namespace {

using Clock = std::chrono::steady_clock;
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

// When each tick was committed, and how long until its handler started.
class Stopwatch {
 public:
  explicit Stopwatch(std::size_t samples) : started_(samples), waited_(samples, -1.0) {}
  void start(int n) { started_[static_cast<std::size_t>(n)] = Clock::now(); }
  void handled(int n) {
    const auto now = Clock::now();
    const std::lock_guard lock(mutex_);
    auto& slot = waited_[static_cast<std::size_t>(n)];
    if (slot < 0) slot = std::chrono::duration<double, std::milli>(now - started_[static_cast<std::size_t>(n)]).count();
    ++handled_;
  }
  int handled_count() const {
    const std::lock_guard lock(mutex_);
    return handled_;
  }
  std::string percentiles() const {
    const std::lock_guard lock(mutex_);
    std::vector<double> samples;
    for (const double sample : waited_)
      if (sample >= 0) samples.push_back(sample);
    std::sort(samples.begin(), samples.end());
    const auto at = [&](double p) {
      return samples.empty() ? 0.0 : samples[std::min(samples.size() - 1, static_cast<std::size_t>(static_cast<double>(samples.size()) * p))];
    };
    char text[160];
    std::snprintf(text, sizeof text, "\"samples\": %zu, \"p50_ms\": %.3f, \"p95_ms\": %.3f, \"max_ms\": %.3f",
                  samples.size(), at(0.50), at(0.95), samples.empty() ? 0.0 : samples.back());
    return text;
  }

 private:
  std::vector<Clock::time_point> started_;
  mutable std::mutex mutex_;
  std::vector<double> waited_;
  int handled_ = 0;
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
// one at a time, each after the previous one's handler started), from a
// writer app with a pool of its own; a worker app with one same-stream
// reaction times them.
std::string latency(const std::string& run, const char* scenario, int count, int rate) {
  const auto counter = counter_state();
  Stopwatch stopwatch(static_cast<std::size_t>(count));
  const std::string prefix = "lat-" + run + "-" + scenario + "-";
  auto worker = act::app("")
                    .with(counter)
                    .on<Ticked>("Ticked")
                    .to([prefix](const act::Committed& event) -> std::optional<act::Route> {
                      if (!event.stream.starts_with(prefix)) return std::nullopt;
                      return act::Route{"proj-" + event.stream, event.stream};
                    })
                    .handle("time", [&](const Ticked& ticked, act::ReactionContext&) { stopwatch.handled(ticked.n); })
                    .build();
  worker.start();
  auto writer = act::app("").with(counter).build();
  const auto period = rate > 0 ? std::chrono::microseconds(1'000'000 / rate) : 0us;
  auto next = Clock::now();
  for (int n = 0; n < count; ++n) {
    stopwatch.start(n);
    writer.do_action("tick", {prefix + std::to_string(n % 64), kBench, {}}, Tick{n});
    if (rate == 0) {
      wait_until([&] { return stopwatch.handled_count() > n; }, 10s);
    } else {
      next += period;
      std::this_thread::sleep_until(next);
    }
  }
  const bool complete = wait_until([&] { return stopwatch.handled_count() >= count; }, 60s);
  worker.shutdown();
  return std::string("{\"scenario\": \"") + scenario + "\", \"commits\": " + std::to_string(count) +
         ", \"rate_per_s\": " + std::to_string(rate) + ", \"complete\": " + (complete ? "true" : "false") + ", " +
         stopwatch.percentiles() + "}";
}

// Commits `events` events over `streams` streams straight through the store,
// then times one app draining them all with settle (on one thread).
std::string throughput(const std::string& run, const char* scenario, int streams, int events, bool projection) {
  const std::string prefix = "thr-" + run + "-" + scenario + "-";
  auto pool = std::make_shared<act::ConnectionPool>("", act::PoolOptions{4});
  act::Store store(pool);
  const int per_stream = events / streams;
  for (int s = 0; s < streams; ++s) {
    std::vector<act::Message> batch;
    for (int i = 0; i < per_stream; ++i) batch.push_back({"Ticked", {{"n", i}}, std::nullopt});
    store.commit(prefix + std::to_string(s), batch);
  }
  std::atomic<long> handled{0};
  const auto counter = counter_state();
  const act::Lane lane{"bench-" + run + "-" + scenario, 30s, 10, 1000};
  auto builder = act::app(pool).with(counter).lane(lane);
  const std::string table = "bench_" + run + "_" + scenario;
  if (projection) {
    builder = std::move(builder).with(act::projection("proj-" + prefix)
                                          .source("^" + prefix)
                                          .lane(lane.name)
                                          .setup([table](act::Sql& sql) {
                                            sql.exec("CREATE TABLE IF NOT EXISTS " + table + " (stream text PRIMARY KEY, n bigint)");
                                          })
                                          .on("Ticked")
                                          .batch([&, table](const std::vector<act::Committed>& batch, act::Sql& sql) {
                                            // One statement per batch: the events travel as one jsonb array.
                                            nlohmann::json rows = nlohmann::json::array();
                                            for (const auto& event : batch) rows.push_back({{"s", event.stream}, {"n", 1}});
                                            sql.exec("INSERT INTO " + table + " AS t SELECT r->>'s', count(*) FROM "
                                                     "jsonb_array_elements($1::jsonb) r GROUP BY 1 "
                                                     "ON CONFLICT (stream) DO UPDATE SET n = t.n + excluded.n",
                                                     {rows});
                                            handled += static_cast<long>(batch.size());
                                          })
                                          .build());
  } else {
    builder = std::move(builder)
                  .on<Ticked>("Ticked")
                  .to([prefix, lane](const act::Committed& event) -> std::optional<act::Route> {
                    if (!event.stream.starts_with(prefix)) return std::nullopt;
                    return act::Route{"sink-" + event.stream, event.stream, 0, lane.name};
                  })
                  .handle("count", [&](const Ticked&, act::ReactionContext&) { ++handled; });
  }
  auto app = std::move(builder).build();
  const auto started = Clock::now();
  app.settle({0ms, 100000});
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  char text[320];
  std::snprintf(text, sizeof text,
                "{\"scenario\": \"%s\", \"streams\": %d, \"events\": %d, \"handled\": %ld, \"seconds\": %.3f, "
                "\"events_per_s\": %.0f}",
                scenario, streams, per_stream * streams, handled.load(), seconds, static_cast<double>(handled) / seconds);
  return text;
}

}  // namespace

int main() try {
  act::ConnectionPool setup("");
  act::ensure_extension(setup);
  const std::string run = std::to_string(std::chrono::system_clock::now().time_since_epoch().count() % 100000000);
  std::string mode;
  act::App probe = act::app("").build();
  probe.transact([&](act::Sql& sql) { mode = sql.exec("SELECT act.mode()").front().text(0); });

  std::cout << "{\n  \"benchmark\": \"reactions through the client library's workers\",\n";
  std::cout << "  \"mode\": \"" << mode << "\",\n  \"latency\": [\n";
  std::cout << "    " << latency(run, "idle", 300, 0) << ",\n";
  std::cout << "    " << latency(run, "rate100", 500, 100) << "\n  ],\n";
  std::cout << "  \"throughput\": [\n";
  std::cout << "    " << throughput(run, "reaction100", 100, 20000, false) << ",\n";
  std::cout << "    " << throughput(run, "projection", 100, 20000, true) << "\n  ]\n}\n";
  return 0;
} catch (const std::exception& error) {
  std::cerr << "reaction_bench: " << error.what() << "\n";
  return 1;
}
