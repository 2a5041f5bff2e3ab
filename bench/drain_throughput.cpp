// Drain throughput: W workers share S streams of E events each; every worker
// loops claim -> query -> ack (query mode), or act.claim_events carrying the
// last cycle's acks (claim_events mode), until no stream has work. Prints one
// record (bench/stats.hpp): events/s, streams/s, and p50/p95 of one cycle.
// A cycle claims CLAIM streams (default 10): four fifths from the lagging
// frontier, the rest from the leading one.
// Usage: drain_throughput WORKERS STREAMS EVENTS [query|claim_events] [CLAIM] (connection from PG* variables).
#include "pq_session.hpp"
#include "stats.hpp"

#include <atomic>
#include <barrier>
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
  // As autovacuum would have long since: planned on an empty table's
  // statistics, a claimed stream's events were read through a BitmapAnd with
  // the whole id range (0.5 ms a stream at 10k events, growing with the log).
  Run(connection, "ANALYZE act.events");
  Run(connection, "ANALYZE act.subscription_rows");
}

// act.claim's first two arguments for a claim of `size` streams.
struct ClaimSize {
  std::string lagging, leading;
  explicit ClaimSize(int size) : lagging(std::to_string(size - size / 5)), leading(std::to_string(size / 5)) {}
  std::string Args() const { return lagging + ", " + leading; }
};
ClaimSize g_claim(10);

struct Tally {
  std::atomic<long> streams{0};
  std::atomic<long> events{0};
  std::mutex mutex;
  bench::Samples cycles;
};

bool Drained(PGconn* connection) {
  Result left = Run(connection, "SELECT count(*) FROM act.subscriptions WHERE at < correlated_at");
  return std::atol(PQgetvalue(left.get(), 0, 0)) == 0;
}

std::string AckEntry(const std::string& stream, const std::string& by, const std::string& at) {
  return R"({"stream": )" + Quote(stream) + R"(, "by": )" + Quote(by) + R"(, "at": )" + at + "}";
}

// Connects and makes the calls of a cycle once on a lane with no work (a
// fresh backend loads pg_act and plans its queries on first use), then waits
// for every worker to be ready: the timed drain counts no start-up.
Connection Ready(std::barrier<>& start, bool claim_events) {
  Connection connection = Connect();
  if (claim_events) {
    Run(connection.get(), "SELECT count(*) FROM act.claim_events(" + g_claim.Args() + ", 'warm-up', 30000, 'warm-up')");
  } else {
    Run(connection.get(), "SELECT count(*) FROM act.claim(" + g_claim.Args() + ", 'warm-up', 30000, 'warm-up')");
    Run(connection.get(), "SELECT count(*) FROM act.query('src-0', after => act.horizon())");
  }
  start.arrive_and_wait();
  return connection;
}

// One call a cycle: the events come in the claim's rows, the acks ride on the next claim.
void WorkClaimEvents(int id, Tally& tally, std::barrier<>& start) {
  Connection connection = Ready(start, true);
  const std::string by = "worker-" + std::to_string(id);
  bench::Samples cycles;
  std::string acks;  // empty: none pending
  const std::string claim = "SELECT stream, at, events::text FROM act.claim_events(" + g_claim.Args() + ", $1, 30000";
  for (;;) {
    const auto cycle = bench::Clock::now();
    Result leases = acks.empty()
                        ? Run(connection.get(), claim + ")", {by})
                        : Run(connection.get(), claim + ", acks => $2::jsonb)", {by, acks});
    acks.clear();
    const int count = PQntuples(leases.get());
    if (count == 0) {
      if (Drained(connection.get())) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    acks = "[";
    for (int row = 0; row < count; ++row) {
      const nlohmann::json events = nlohmann::json::parse(PQgetvalue(leases.get(), row, 2));
      const std::string last = events.empty() ? PQgetvalue(leases.get(), row, 1) : std::to_string(events.back().at("id").get<long>());
      tally.events += static_cast<long>(events.size());
      tally.streams += 1;
      acks += std::string(row ? "," : "") + AckEntry(PQgetvalue(leases.get(), row, 0), by, last);
    }
    acks += "]";
    cycles.add(bench::milliseconds_since(cycle));
  }
  const std::lock_guard lock(tally.mutex);
  tally.cycles.merge(cycles);
}

void Work(int id, Tally& tally, std::barrier<>& start) {
  Connection connection = Ready(start, false);
  const std::string by = "worker-" + std::to_string(id);
  bench::Samples cycles;
  const std::string claim = "SELECT stream, source, at FROM act.claim(" + g_claim.Args() + ", $1, 30000)";
  for (;;) {
    const auto cycle = bench::Clock::now();
    Result leases = Run(connection.get(), claim, {by});
    const int count = PQntuples(leases.get());
    if (count == 0) {
      if (Drained(connection.get())) break;
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
      acks += std::string(row ? "," : "") + AckEntry(stream, by, last);
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
  if (argc < 4 || argc > 6) {
    std::fprintf(stderr, "usage: %s WORKERS STREAMS EVENTS [query|claim_events] [CLAIM]\n", argv[0]);
    return 2;
  }
  const std::string mode = argc >= 5 ? argv[4] : "query";
  const int claim_size = argc == 6 ? std::atoi(argv[5]) : 10;
  if (claim_size < 1) {
    std::fprintf(stderr, "drain_throughput: CLAIM is a number of streams, 1 or more, not %s\n", argv[5]);
    return 2;
  }
  g_claim = ClaimSize(claim_size);
  if (mode != "query" && mode != "claim_events") {
    std::fprintf(stderr, "drain_throughput: mode is query or claim_events, not %s\n", mode.c_str());
    return 2;
  }
  const int workers = std::atoi(argv[1]);
  const int streams = std::atoi(argv[2]);
  const int events = std::atoi(argv[3]);
  try {
    Connection setup = Connect();
    Setup(setup.get(), streams, events);
    Tally tally;
    std::barrier<> ready(workers + 1);
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w)
      threads.emplace_back(mode == "query" ? Work : WorkClaimEvents, w, std::ref(tally), std::ref(ready));
    ready.arrive_and_wait();  // every worker connected and warmed up
    const auto start = std::chrono::steady_clock::now();
    for (auto& thread : threads) thread.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Result check = Run(setup.get(), "SELECT count(*) FROM act.subscriptions WHERE at < correlated_at");
    nlohmann::json fields = tally.cycles.summary();
    fields["ops_per_s"] = static_cast<double>(tally.events.load()) / seconds;
    const char* cycle = mode == "query" ? "one claim -> query -> ack cycle" : "one claim_events call carrying the last acks";
    fields.update({{"ops", "events"}, {"latency_of", cycle}, {"workers", workers},
                   {"streams", streams}, {"events_per_stream", events}, {"seconds", seconds}, {"claim", claim_size},
                   {"streams_per_s", streams / seconds}, {"events_handled", tally.events.load()},
                   {"left_with_work", std::atol(PQgetvalue(check.get(), 0, 0))}});
    // The default claim keeps the scenario names earlier runs recorded.
    const std::string claimed = claim_size == 10 ? "" : "_claim_" + std::to_string(claim_size);
    bench::print_record(std::string(mode == "query" ? "sql/drain_" : "sql/drain_claim_events_") + std::to_string(workers) +
                            "_workers_" + std::to_string(streams) + "_streams" + claimed,
                        fields);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "drain_throughput: %s\n", error.what());
    return 1;
  }
  return 0;
}
