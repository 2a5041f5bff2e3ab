// Drain throughput: W workers share S streams of E events each; every worker
// loops claim -> query -> ack (query mode), or act.claim_events carrying the
// last cycle's acks (claim_events mode), until no stream has work. Prints one
// record (bench/stats.hpp): events/s, streams/s, and p50/p95 of one cycle.
// A cycle claims CLAIM streams (default 10): four fifths from the lagging
// frontier, the rest from the leading one.
// The plain mode is the floor of a drain: the same events in plain tables, no
// pg_act, each cycle one statement that takes up to CLAIM streams with work
// (FOR UPDATE SKIP LOCKED), returns their events and moves their watermarks.
// Usage: drain_throughput WORKERS STREAMS EVENTS [query|claim_events|plain] [CLAIM] (connection from PG* variables).
#include "pq_session.hpp"
#include "stats.hpp"
#include "work_predicates.hpp"

#include <algorithm>
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
  // 1,000 streams a statement, in order: one round trip each would take a minute at 20,000.
  for (int first = 0; first < streams; first += 1000)
    Run(connection, "SELECT count(*) FROM generate_series($1::int, $2::int) s, act.commit('src-' || s, $3::jsonb)",
        {std::to_string(first), std::to_string(std::min(first + 1000, streams) - 1), batch});
  std::string subscriptions = "[";
  for (int s = 0; s < streams; ++s) {
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
  // Sealed, as a backlog written long ago would be: in concurrent mode the
  // seal worker otherwise appends these 100,000 events to the tree during
  // the timed drain (28 % of the samples of a 5 x 100 drain), a commit's
  // cost the merkle suite measures.
  Run(connection, "SELECT count(*) FROM act.seal()");
}

// act.claim's first two arguments for a claim of `size` streams.
struct ClaimSize {
  std::string total, lagging, leading;
  explicit ClaimSize(int size)
      : total(std::to_string(size)), lagging(std::to_string(size - size / 5)), leading(std::to_string(size / 5)) {}
  std::string Args() const { return lagging + ", " + leading; }
};
ClaimSize g_claim(10);

struct Tally {
  std::atomic<long> streams{0};
  std::atomic<long> events{0};
  std::mutex mutex;
  bench::Samples cycles;
};

// The plain mode's tables: events of the same shape as Setup commits, one
// work row a stream with its watermark (at) and its stream's last event id,
// and a partial index over the rows with work, as pg_act's work set has.
void SetupPlain(PGconn* connection, int streams, int events) {
  Run(connection, R"(CREATE TABLE plain_drain_events (id bigserial PRIMARY KEY, stream text NOT NULL, name text NOT NULL,
                                                      data jsonb NOT NULL))");
  Run(connection, "CREATE INDEX ON plain_drain_events (stream, id)");
  Run(connection, R"(CREATE TABLE plain_drain_work (stream text PRIMARY KEY, source text NOT NULL, at bigint NOT NULL,
                                                    last bigint NOT NULL))");
  Run(connection, "CREATE INDEX ON plain_drain_work (stream) WHERE at < last");
  Run(connection, R"(INSERT INTO plain_drain_events (stream, name, data)
                     SELECT 'src-' || s, 'Happened', jsonb_build_object('n', e)
                       FROM generate_series(0, $1::int - 1) s, generate_series(0, $2::int - 1) e ORDER BY s, e)",
      {std::to_string(streams), std::to_string(events)});
  Run(connection, R"(INSERT INTO plain_drain_work SELECT 'proj-' || substr(stream, 5), stream, 0, max(id)
                       FROM plain_drain_events GROUP BY stream)");
  Run(connection, "ANALYZE plain_drain_events");
  Run(connection, "ANALYZE plain_drain_work");
}

// One plain cycle ($1 streams at most): claim, read and ack in one statement;
// the row locks are the lease, held for the statement only.
const char* const kPlainCycle = R"(
WITH claimed AS (SELECT stream, source, at FROM plain_drain_work WHERE at < last LIMIT $1 FOR UPDATE SKIP LOCKED),
     read AS (SELECT c.stream, max(e.id) AS last,
                     jsonb_agg(jsonb_build_object('id', e.id, 'name', e.name, 'data', e.data) ORDER BY e.id) AS events
                FROM claimed c JOIN plain_drain_events e ON e.stream = c.source AND e.id > c.at GROUP BY c.stream),
     acked AS (UPDATE plain_drain_work w SET at = read.last FROM read WHERE w.stream = read.stream)
SELECT stream, events::text FROM read)";

// The streams left with work: none when the drain is over. Every worker asks
// at least once inside the timed drain, so the rows are counted by the work
// set's predicate (generated from sql/predicates/work_set.sql), 5 ms at 20,000 rows: through
// act.subscriptions, which adds each row's class marks, it took 31 ms and was
// planned above jit_above_cost (loading LLVM into each worker's backend). The
// bench's subscriptions have literal sources, whose work is their own mark.
long WorkLeft(PGconn* connection, const std::string& mode) {
  return static_cast<long>(Scalar(connection, mode == "plain"
                                                  ? std::string("SELECT count(*) FROM plain_drain_work WHERE at < last")
                                                  : std::string("SELECT count(*) FROM act.subscription_rows WHERE ") +
                                                        act::core::kWorkSetPredicate));
}

std::string AckEntry(const std::string& stream, const std::string& by, const std::string& at) {
  return R"({"stream": )" + Quote(stream) + R"(, "by": )" + Quote(by) + R"(, "at": )" + at + "}";
}

// Connects and makes the calls of a cycle once on a lane with no work (a
// fresh backend loads pg_act and plans its queries on first use), then waits
// for every worker to be ready: the timed drain counts no start-up.
Connection Ready(std::barrier<>& start, const std::string& mode) {
  Connection connection = Connect();
  if (mode == "plain") {
    Run(connection.get(), kPlainCycle, {"0"});
  } else if (mode == "claim_events") {
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
  Connection connection = Ready(start, "claim_events");
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
      if (WorkLeft(connection.get(), "claim_events") == 0) break;
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
  Connection connection = Ready(start, "query");
  const std::string by = "worker-" + std::to_string(id);
  bench::Samples cycles;
  const std::string claim = "SELECT stream, source, at FROM act.claim(" + g_claim.Args() + ", $1, 30000)";
  for (;;) {
    const auto cycle = bench::Clock::now();
    Result leases = Run(connection.get(), claim, {by});
    const int count = PQntuples(leases.get());
    if (count == 0) {
      if (WorkLeft(connection.get(), "query") == 0) break;
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

void WorkPlain(int /*id*/, Tally& tally, std::barrier<>& start) {
  Connection connection = Ready(start, "plain");
  bench::Samples cycles;
  for (;;) {
    const auto cycle = bench::Clock::now();
    Result read = Run(connection.get(), kPlainCycle, {g_claim.total});
    const int count = PQntuples(read.get());
    if (count == 0) {
      if (WorkLeft(connection.get(), "plain") == 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    for (int row = 0; row < count; ++row) {
      tally.events += static_cast<long>(nlohmann::json::parse(PQgetvalue(read.get(), row, 1)).size());
      tally.streams += 1;
    }
    cycles.add(bench::milliseconds_since(cycle));
  }
  const std::lock_guard lock(tally.mutex);
  tally.cycles.merge(cycles);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 6) {
    std::fprintf(stderr, "usage: %s WORKERS STREAMS EVENTS [query|claim_events|plain] [CLAIM]\n", argv[0]);
    return 2;
  }
  const std::string mode = argc >= 5 ? argv[4] : "query";
  const int claim_size = argc == 6 ? std::atoi(argv[5]) : 10;
  if (claim_size < 1) {
    std::fprintf(stderr, "drain_throughput: CLAIM is a number of streams, 1 or more, not %s\n", argv[5]);
    return 2;
  }
  g_claim = ClaimSize(claim_size);
  if (mode != "query" && mode != "claim_events" && mode != "plain") {
    std::fprintf(stderr, "drain_throughput: mode is query, claim_events or plain, not %s\n", mode.c_str());
    return 2;
  }
  const int workers = std::atoi(argv[1]);
  const int streams = std::atoi(argv[2]);
  const int events = std::atoi(argv[3]);
  try {
    Connection setup = Connect();
    if (mode == "plain") {
      SetupPlain(setup.get(), streams, events);
    } else {
      Setup(setup.get(), streams, events);
    }
    Tally tally;
    std::barrier<> ready(workers + 1);
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w)
      threads.emplace_back(mode == "query" ? Work : mode == "plain" ? WorkPlain : WorkClaimEvents, w, std::ref(tally),
                           std::ref(ready));
    ready.arrive_and_wait();  // every worker connected and warmed up
    const auto start = std::chrono::steady_clock::now();
    for (auto& thread : threads) thread.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    nlohmann::json fields = tally.cycles.summary();
    fields["ops_per_s"] = static_cast<double>(tally.events.load()) / seconds;
    const char* cycle = mode == "query"   ? "one claim -> query -> ack cycle"
                        : mode == "plain" ? "one plain statement claiming, reading and acking"
                                          : "one claim_events call carrying the last acks";
    fields.update({{"ops", "events"}, {"latency_of", cycle}, {"workers", workers},
                   {"streams", streams}, {"events_per_stream", events}, {"seconds", seconds}, {"claim", claim_size},
                   {"streams_per_s", streams / seconds}, {"events_handled", tally.events.load()},
                   {"left_with_work", WorkLeft(setup.get(), mode)}});
    // The default claim keeps the scenario names earlier runs recorded.
    const std::string claimed = claim_size == 10 ? "" : "_claim_" + std::to_string(claim_size);
    const std::string prefix = mode == "query" ? "sql/drain_" : "sql/drain_" + mode + "_";
    bench::print_record(prefix + std::to_string(workers) +
                            "_workers_" + std::to_string(streams) + "_streams" + claimed,
                        fields);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "drain_throughput: %s\n", error.what());
    return 1;
  }
  return 0;
}
