// A commit storm that outlives its primary: W writers, each on a stream of
// its own, commit one event at a time with the expected version, through a
// multi-host connection string (target_session_attrs=read-write), for
// SECONDS. A writer that loses its connection reconnects to whichever node
// is the primary now and settles the commit in doubt by reading its stream:
// each event carries a token, so a commit that did land is recognized and
// never written twice. Every commit whose reply said success goes to the
// ledger, one line "stream<TAB>version<TAB>id" on stdout, for the caller to
// check against the log after the failovers. The summary goes to stderr.
// Drainers (as many as writers) meanwhile drain the subscriptions drain-W
// (source storm-W) through act.claim_events: each cycle records the events
// it was handed in storm_handled and acknowledges them in one transaction,
// so a failover at any point leaves each event recorded once or not yet;
// they reconnect as the writers do and end once no subscription has work.
// Usage: failover_storm SECONDS WRITERS CONNINFO [STOP_FILE]
// (the storm also ends as soon as STOP_FILE exists)
#include "pq_session.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kReconnectFor = std::chrono::seconds(60);  // a failover takes seconds; more is a failure

struct Ledger {
  std::mutex mutex;
  std::vector<std::string> lines;
  void Add(const std::string& stream, long long version, long long id) {
    const std::lock_guard<std::mutex> lock(mutex);
    lines.push_back(stream + "\t" + std::to_string(version) + "\t" + std::to_string(id));
  }
};

struct Tally {
  std::atomic<long> acknowledged{0};
  std::atomic<long> in_doubt_landed{0};   // the reply was lost, the event is there
  std::atomic<long> in_doubt_missing{0};  // the reply was lost, the event is not: written again
  std::atomic<long> reconnects{0};
  std::atomic<long> failed_writers{0};
  std::atomic<long> handled{0};
  std::atomic<long> drain_reconnects{0};
  std::atomic<long> failed_drainers{0};
  std::atomic<long> longest_outage_ms{0};  // from a lost connection to the next commit's reconnect
  void Outage(Clock::duration lasted) {
    const long ms = static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(lasted).count());
    long longest = longest_outage_ms.load();
    while (ms > longest && !longest_outage_ms.compare_exchange_weak(longest, ms)) {
    }
  }
};

bool Lost(const pq::Error& error) {
  // No SQLSTATE: the connection is gone. 57P01..57P03: the server is shutting
  // down or starting; 25006: we reached a node that is no longer the primary.
  return error.sqlstate.empty() || error.sqlstate.rfind("57P", 0) == 0 || error.sqlstate == "25006";
}

pq::Connection Reconnect(const std::string& conninfo, Tally& tally) {
  const auto until = Clock::now() + kReconnectFor;
  for (;;) {
    try {
      pq::Connection connection = pq::Connect(conninfo);
      ++tally.reconnects;
      return connection;
    } catch (const pq::Error&) {
      if (Clock::now() > until) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
}

// The event at `version` of `stream`, when there is one: (id, token).
std::optional<std::pair<long long, std::string>> EventAt(PGconn* connection, const std::string& stream,
                                                         long long version) {
  pq::Result rows = pq::Run(connection,
                            "SELECT id, data->>'token' FROM act.query(stream => $1) WHERE version = $2::int",
                            {stream, std::to_string(version)});
  if (PQntuples(rows.get()) == 0) return std::nullopt;
  return std::make_pair(std::atoll(PQgetvalue(rows.get(), 0, 0)), std::string(PQgetvalue(rows.get(), 0, 1)));
}

struct Storm {
  std::string conninfo;
  Clock::time_point until;
  std::string stop_file;  // empty: none
  bool Over() const {
    return Clock::now() >= until || (!stop_file.empty() && std::filesystem::exists(stop_file));
  }
};

void Write(int writer, const Storm& storm, Ledger& ledger, Tally& tally) {
  const std::string& conninfo = storm.conninfo;
  const std::string stream = "storm-" + std::to_string(writer);
  try {
    pq::Connection connection = Reconnect(conninfo, tally);
    long long version = -1;  // the stream's head as this writer knows it
    long long sequence = 0;
    while (!storm.Over()) {
      const std::string token = std::to_string(writer) + "-" + std::to_string(sequence++);
      const std::string events = "[{\"name\": \"Stormed\", \"data\": {\"token\": \"" + token + "\"}}]";
      try {
        pq::Result rows = pq::Run(connection.get(), "SELECT id, version FROM act.commit($1, $2::jsonb, '{}', $3::int)",
                                  {stream, events, std::to_string(version)});
        ++version;
        ledger.Add(stream, version, std::atoll(PQgetvalue(rows.get(), 0, 0)));
        ++tally.acknowledged;
      } catch (const pq::Error& error) {
        if (!Lost(error)) throw;
        // In doubt: the commit may have landed before the reply was lost.
        const auto lost_at = Clock::now();
        connection = Reconnect(conninfo, tally);
        tally.Outage(Clock::now() - lost_at);
        const auto landed = EventAt(connection.get(), stream, version + 1);
        if (landed && landed->second == token) {
          ++version;
          ++tally.in_doubt_landed;
        } else if (landed) {
          throw std::runtime_error(stream + " version " + std::to_string(version + 1) + " holds token " +
                                   landed->second + ", not " + token);
        } else {
          ++tally.in_doubt_missing;
        }
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "failover_storm: writer %d: %s\n", writer, error.what());
    ++tally.failed_writers;
  }
}

// One cycle: claim, record, acknowledge, commit. Returns the events recorded.
long DrainCycle(PGconn* connection, const std::string& by) {
  pq::Run(connection, "BEGIN");
  pq::Result leases =
      pq::Run(connection, "SELECT stream, at, events FROM act.claim_events(2, 2, $1, 5000, NULL, 100)", {by});
  long recorded = 0;
  std::string acks = "[";
  for (int row = 0; row < PQntuples(leases.get()); ++row) {
    const std::string subscription = PQgetvalue(leases.get(), row, 0);
    pq::Result handled = pq::Run(connection,
                                 "INSERT INTO storm_handled (subscription, event_id) SELECT $1, (e->>'id')::bigint "
                                 "FROM jsonb_array_elements($2::jsonb) e RETURNING event_id",
                                 {subscription, std::string(PQgetvalue(leases.get(), row, 2))});
    long long last = std::atoll(PQgetvalue(leases.get(), row, 1));
    for (int i = 0; i < PQntuples(handled.get()); ++i) last = std::max(last, std::atoll(PQgetvalue(handled.get(), i, 0)));
    recorded += PQntuples(handled.get());
    acks += std::string(acks.size() > 1 ? ", " : "") + R"({"stream": ")" + subscription + R"(", "by": ")" + by +
            R"(", "at": )" + std::to_string(last) + "}";
  }
  if (acks.size() > 1) pq::Run(connection, "SELECT count(*) FROM act.ack($1::jsonb)", {acks + "]"});
  pq::Run(connection, "COMMIT");
  return PQntuples(leases.get()) == 0 ? -1 : recorded;
}

void Drain(int drainer, const Storm& storm, const std::atomic<bool>& writers_done, Tally& tally) {
  const std::string by = "drainer-" + std::to_string(drainer);
  try {
    pq::Connection connection = Reconnect(storm.conninfo, tally);
    const auto give_up = [&] { return Clock::now() > storm.until + std::chrono::seconds(120); };
    while (!give_up()) {
      try {
        const long recorded = DrainCycle(connection.get(), by);
        if (recorded > 0) tally.handled += recorded;
        if (recorded >= 0) continue;
        if (writers_done && pq::Scalar(connection.get(), "SELECT count(*) FROM act.subscriptions "
                                                         "WHERE stream LIKE 'drain-%' AND at < correlated_at") == 0)
          return;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      } catch (const pq::Error& error) {
        if (!Lost(error)) throw;
        connection = Reconnect(storm.conninfo, tally);  // the cycle's transaction is gone with the connection
        ++tally.drain_reconnects;
      }
    }
    throw std::runtime_error("work left two minutes after the storm");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "failover_storm: %s: %s\n", by.c_str(), error.what());
    ++tally.failed_drainers;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: failover_storm SECONDS WRITERS CONNINFO [STOP_FILE]\n");
    return 2;
  }
  const Storm storm{argv[3], Clock::now() + std::chrono::seconds(std::atoi(argv[1])), argc == 5 ? argv[4] : ""};
  const int writers = std::atoi(argv[2]);
  Ledger ledger;
  Tally tally;
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w) threads.emplace_back(Write, w, std::cref(storm), std::ref(ledger), std::ref(tally));
  std::atomic<bool> writers_done{false};
  std::vector<std::thread> drainers;
  for (int d = 0; d < writers; ++d)
    drainers.emplace_back(Drain, d, std::cref(storm), std::cref(writers_done), std::ref(tally));
  for (auto& thread : threads) thread.join();
  writers_done = true;
  for (auto& thread : drainers) thread.join();
  for (const std::string& line : ledger.lines) std::printf("%s\n", line.c_str());
  std::fprintf(stderr,
               "# failover_storm: %ld commits acknowledged, %ld in doubt and found landed, %ld in doubt and not "
               "landed (written again), %ld reconnects (the longest %ld ms after the connection broke), %ld writers "
               "failed\n",
               tally.acknowledged.load(), tally.in_doubt_landed.load(), tally.in_doubt_missing.load(),
               tally.reconnects.load() - 2 * writers - tally.drain_reconnects.load(), tally.longest_outage_ms.load(),
               tally.failed_writers.load());
  std::fprintf(stderr, "# failover_storm: drainers recorded %ld events, reconnected %ld times, %ld failed\n",
               tally.handled.load(), tally.drain_reconnects.load(), tally.failed_drainers.load());
  return tally.failed_writers.load() == 0 && tally.failed_drainers.load() == 0 ? 0 : 1;
}
