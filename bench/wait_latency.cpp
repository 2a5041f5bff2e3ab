// act.wait wake-up latency: a writer commits one event every 10 ms; a waiter
// loops on act.wait(last, 1000). Latency = waiter's return minus the moment
// the writer sent its commit. Prints one record (bench/stats.hpp).
// Usage: wait_latency COMMITS [WAITER_CONNINFO] (the waiter may read a hot standby)
#include "pq_session.hpp"
#include "stats.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

using pq::Connect;
using pq::Connection;
using pq::Result;
using pq::Run;
using pq::Scalar;

}  // namespace

int main(int argc, char** argv) {
  const int commits = argc > 1 ? std::atoi(argv[1]) : 200;
  try {
    Connection writer = Connect();
    Connection waiter = argc > 2 ? Connect(argv[2]) : Connect();
    std::mutex lock;
    std::vector<std::pair<long long, Clock::time_point>> sent;  // (id, commit sent)
    std::vector<std::pair<long long, Clock::time_point>> woken;  // (horizon, wait returned)
    std::atomic<bool> done{false};
    long long start = Scalar(waiter.get(), "SELECT act.horizon()");
    const auto began = Clock::now();
    std::thread wait_loop([&] {
      long long after = start;
      while (!done.load()) {
        const long long horizon =
            Scalar(waiter.get(), "SELECT act.wait(" + std::to_string(after) + ", 1000)");
        const auto now = Clock::now();
        if (horizon > after) {
          std::lock_guard<std::mutex> guard(lock);
          woken.emplace_back(horizon, now);
          after = horizon;
        }
      }
    });
    for (int i = 0; i < commits; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      Run(writer.get(), "BEGIN");
      const long long id = Scalar(writer.get(), "SELECT id FROM act.commit('wait-bench', '[{\"name\": \"Ping\"}]')");
      const auto commit_sent = Clock::now();
      Run(writer.get(), "COMMIT");
      std::lock_guard<std::mutex> guard(lock);
      sent.emplace_back(id, commit_sent);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    done = true;
    wait_loop.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - began).count();
    bench::Samples latencies;
    for (const auto& [id, at] : sent) {
      auto wake = std::find_if(woken.begin(), woken.end(), [id = id](const auto& w) { return w.first >= id; });
      if (wake == woken.end()) continue;
      latencies.add(std::chrono::duration<double, std::milli>(wake->second - at).count());
    }
    nlohmann::json fields = latencies.summary();
    fields["ops_per_s"] = static_cast<double>(latencies.size()) / seconds;
    fields.update({{"ops", "wake-ups"}, {"latency_of", "commit sent -> act.wait returned"}, {"commits", commits},
                   {"woken_for", latencies.size()}});
    bench::print_record("sql/wait_wakeup", fields);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "wait_latency: %s\n", error.what());
    return 1;
  }
  return 0;
}
