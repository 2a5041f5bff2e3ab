// Drain throughput: W workers share S streams of E events each; every worker
// loops claim -> query -> ack until no stream has work. Prints one record
// (bench/stats.hpp): events/s, and p50/p95 of one claim -> query -> ack cycle.
// Usage: drain_throughput WORKERS STREAMS EVENTS (connection from PG* variables).
#include "pq_session.hpp"
#include "stats.hpp"

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

using pq::Connect;
using pq::Connection;
using pq::Result;
using pq::Run;
using pq::Scalar;

std::string Quote(const std::string& text) { return "\"" + text + "\""; }

void Setup(PGconn* connection, int streams, int events) {
  std::string batch = "[";
  for (int e = 0; e < events; ++e) batch += std::string(e ? "," : "") + R"({"name": "Happened", "data": {"n": )" +
                                              std::to_string(e) + "}}";
  batch += "]";
  std::string subscriptions = "[";
  for (int s = 0; s < streams; ++s) {
    Run(connection, "SELECT count(*) FROM act.commit($1, $2::jsonb)", {"src-" + std::to_string(s), batch});
    subscriptions += std::string(s ? "," : "") + R"({"stream": )" + Quote("proj-" + std::to_string(s)) +
                     R"(, "source": )" + Quote("src-" + std::to_string(s)) + "}";
  }
  subscriptions += "]";
  Run(connection, "SELECT * FROM act.subscribe($1::jsonb)", {subscriptions});
}

struct Tally {
  std::atomic<long> streams{0};
  std::atomic<long> events{0};
  std::mutex mutex;
  bench::Samples cycles;
};

void Work(int id, Tally& tally) {
  Connection connection = Connect();
  const std::string by = "worker-" + std::to_string(id);
  bench::Samples cycles;
  for (;;) {
    const auto cycle = bench::Clock::now();
    Result leases = Run(connection.get(), "SELECT stream, source, at FROM act.claim(8, 2, $1, 30000)", {by});
    const int count = PQntuples(leases.get());
    if (count == 0) {
      Result left = Run(connection.get(), "SELECT count(*) FROM act.subscriptions WHERE at < correlated_at");
      if (std::atol(PQgetvalue(left.get(), 0, 0)) == 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    std::string acks = "[";
    for (int row = 0; row < count; ++row) {
      const std::string stream = PQgetvalue(leases.get(), row, 0);
      const std::string source = PQgetvalue(leases.get(), row, 1);
      const std::string at = PQgetvalue(leases.get(), row, 2);
      Result fetched = Run(connection.get(), "SELECT id FROM act.query($1, after => $2::bigint)", {source, at});
      const int handled = PQntuples(fetched.get());
      const std::string last = handled ? PQgetvalue(fetched.get(), handled - 1, 0) : at;
      tally.events += handled;
      tally.streams += 1;
      acks += std::string(row ? "," : "") + R"({"stream": )" + Quote(stream) + R"(, "by": )" + Quote(by) +
              R"(, "at": )" + last + "}";
    }
    acks += "]";
    Run(connection.get(), "SELECT count(*) FROM act.ack($1::jsonb)", {acks});
    cycles.add(bench::milliseconds_since(cycle));
  }
  const std::lock_guard lock(tally.mutex);
  tally.cycles.merge(cycles);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s WORKERS STREAMS EVENTS\n", argv[0]);
    return 2;
  }
  const int workers = std::atoi(argv[1]);
  const int streams = std::atoi(argv[2]);
  const int events = std::atoi(argv[3]);
  try {
    Connection setup = Connect();
    Setup(setup.get(), streams, events);
    Tally tally;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w) threads.emplace_back(Work, w, std::ref(tally));
    for (auto& thread : threads) thread.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Result check = Run(setup.get(), "SELECT count(*) FROM act.subscriptions WHERE at < correlated_at");
    nlohmann::json fields = tally.cycles.summary();
    fields["ops_per_s"] = static_cast<double>(tally.events.load()) / seconds;
    fields.update({{"ops", "events"}, {"latency_of", "one claim -> query -> ack cycle"}, {"workers", workers},
                   {"streams", streams}, {"events_per_stream", events}, {"seconds", seconds},
                   {"streams_per_s", streams / seconds}, {"events_handled", tally.events.load()},
                   {"left_with_work", std::atol(PQgetvalue(check.get(), 0, 0))}});
    bench::print_record("sql/drain_" + std::to_string(workers) + "_workers_" + std::to_string(streams) + "_streams",
                        fields);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "drain_throughput: %s\n", error.what());
    return 1;
  }
  return 0;
}
