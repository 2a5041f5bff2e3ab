#include "commits.hpp"

#include <unistd.h>

#include <cstdio>
#include <random>
#include <thread>

namespace stress {

CommitTally Sum(Shared<CommitTally>& tallies) {
  CommitTally total{};
  for (CommitTally& tally : tallies) {
    total.commits += Get(tally.commits);
    total.events += Get(tally.events);
    total.in_doubt_commits += Get(tally.in_doubt_commits);
    total.in_doubt_events += Get(tally.in_doubt_events);
    total.conflicts += Get(tally.conflicts);
    total.reconnects += Get(tally.reconnects);
  }
  return total;
}

namespace {

// A crash sends every session a warning; the ack log is what counts.
void IgnoreNotice(void*, const char*) {}

}  // namespace

pq::Connection Reconnect(Clock::time_point deadline) {
  for (;;) {
    try {
      pq::Connection connection = pq::Connect();
      PQsetNoticeProcessor(connection.get(), IgnoreNotice, nullptr);
      return connection;
    } catch (const pq::Error&) {
      if (Clock::now() >= deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

namespace {

// Whether a failed statement lost its connection, so its outcome is unknown.
bool ConnectionLost(PGconn* connection, const pq::Error& error) {
  const std::string& code = error.sqlstate;
  return PQstatus(connection) == CONNECTION_BAD || code.empty() || code.starts_with("57P") || code.starts_with("08");
}

}  // namespace

int Commit(const CommitPlan& plan, int process, CommitTally& tally, long& stop, const AckLog& log,
           Clock::time_point deadline) {
  std::mt19937 random(static_cast<unsigned>(getpid()));
  AckLog::Writer acknowledged = log.Open(process);
  pq::Connection connection = Reconnect(deadline);
  const std::string prefix = plan.prefix + "-" + std::to_string(process) + "-";
  for (long n = 0; n < plan.commits || !Get(stop); ++n) {
    if (Clock::now() >= deadline) {
      std::fprintf(stderr, "# committer %d: deadline reached after %ld commits\n", process, n);
      return 1;
    }
    const long count = 1 + static_cast<long>(random() % 3);
    std::string events = "[";
    for (long k = 0; k < count; ++k) {
      events += std::string(k ? ", " : "") + R"({"name": ")" + (random() % 2 ? "Odd" : "Even") +
                R"(", "data": {"t": ")" + std::to_string(process) + "." + std::to_string(n) + "." + std::to_string(k) +
                R"("}})";
    }
    events += "]";
    try {
      pq::Result rows =
          pq::Run(connection.get(), "SELECT id, stream, version, data->>'t' FROM act.commit($1, $2::jsonb)",
                  {prefix + std::to_string(n % plan.streams), events});
      acknowledged.Record(rows.get());
      Add(tally.commits, 1);
      Add(tally.events, PQntuples(rows.get()));
    } catch (const pq::Error& error) {
      if (!plan.survive_restarts || !ConnectionLost(connection.get(), error)) throw;
      Add(tally.in_doubt_commits, 1);
      Add(tally.in_doubt_events, count);
      connection = Reconnect(deadline);
      Add(tally.reconnects, 1);
    }
  }
  return 0;
}

Committers::Committers(const CommitPlan& plan, int processes, Clock::time_point deadline)
    : deadline_(deadline), tallies_(static_cast<std::size_t>(processes)) {
  for (int p = 0; p < processes; ++p)
    processes_.Spawn(
        [&, p] { return Commit(plan, p, tallies_[static_cast<std::size_t>(p)], stop_[0], log_, deadline); });
}

void CheckCommitted(Report& report, PGconn* connection, const AckLog& log, const std::string& prefix,
                    const CommitTally& total) {
  log.Load(connection);
  const std::string streams = "'" + prefix + "-%'";
  const long lost = pq::Scalar(connection,
                               "SELECT count(*) FROM stress_acked a WHERE NOT EXISTS (SELECT FROM act.events e "
                               "WHERE e.id = a.id AND e.stream = a.stream AND e.version = a.version AND "
                               "e.data->>'t' = a.token)");
  report.lost += lost;
  report.Expect(lost == 0, std::to_string(lost) + " acknowledged events are missing or changed");
  const long recorded = pq::Scalar(connection, "SELECT count(DISTINCT id) FROM stress_acked");
  report.Expect(recorded == total.events, "the ack log holds " + std::to_string(recorded) + " distinct events, " +
                                              std::to_string(total.events) + " were acknowledged");
  const long bad_streams =
      pq::Scalar(connection, "SELECT count(*) FROM (SELECT stream FROM act.events WHERE stream LIKE " + streams +
                                 " GROUP BY stream HAVING count(DISTINCT version) <> count(*) OR min(version) <> 0 "
                                 "OR max(version) <> count(*) - 1) bad");
  report.Expect(bad_streams == 0, std::to_string(bad_streams) + " streams with a duplicate or missing version");
  const long stored = pq::Scalar(connection, "SELECT count(*) FROM act.events WHERE stream LIKE " + streams);
  report.Expect(stored >= total.events && stored <= total.events + total.in_doubt_events,
                "the log holds " + std::to_string(stored) + " events: " + std::to_string(total.events) +
                    " acknowledged, " + std::to_string(total.in_doubt_events) + " in doubt");
  const long invalid = pq::Scalar(connection, "SELECT count(*) FROM act.verify() WHERE NOT valid");
  report.Expect(invalid == 0, std::to_string(invalid) + " streams whose chain does not verify");
  const long unseen =
      pq::Scalar(connection, "SELECT (SELECT count(*) FROM act.events) - (SELECT count(*) FROM act.query(after => 0))");
  report.Expect(unseen == 0, "a reader following `after` misses " + std::to_string(unseen) + " events");
  report.commits += total.commits;
  report.events += total.events;
}

}  // namespace stress
