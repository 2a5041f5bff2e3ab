// Same stream: 8 processes race to append to one stream, each commit guarded
// by the head it read; a lost race is a version conflict (SQLSTATE 40001 with
// the contract's message), retried until the commit lands.
#include <unistd.h>

#include <cstdio>
#include <random>
#include <thread>

#include "commits.hpp"
#include "scenarios.hpp"

namespace stress {

namespace {

constexpr const char* kStream = "race-0-0";  // the CheckCommitted naming: prefix-process-stream
constexpr int kAttempts = 1000;

int Race(int process, long commits, CommitTally& tally, const AckLog& log) {
  std::mt19937 random(static_cast<unsigned>(getpid()));
  AckLog::Writer acknowledged = log.Open(process);
  pq::Connection connection = pq::Connect();
  for (long n = 0; n < commits; ++n) {
    const std::string events =
        R"([{"name": "Raced", "data": {"t": ")" + std::to_string(process) + "." + std::to_string(n) + R"("}}])";
    for (int attempt = 1;; ++attempt) {
      const std::string head =
          std::to_string(pq::Scalar(connection.get(), std::string("SELECT act.version('") + kStream + "')"));
      try {
        pq::Result rows = pq::Run(
            connection.get(), "SELECT id, stream, version, data->>'t' FROM act.commit($1, $2::jsonb, '{}', $3::int)",
            {kStream, events, head});
        acknowledged.Record(rows.get());
        Add(tally.commits, 1);
        Add(tally.events, PQntuples(rows.get()));
        break;
      } catch (const pq::Error& error) {
        const std::string expected = std::string("concurrency conflict on stream \"") + kStream +
                                     "\": expected version " + head + ", actual version ";
        if (error.sqlstate != "40001" || std::string(error.what()).find(expected) == std::string::npos) {
          std::fprintf(stderr, "# racer %d: not the contract's conflict (SQLSTATE %s): %s\n", process,
                       error.sqlstate.c_str(), error.what());
          return 1;
        }
        Add(tally.conflicts, 1);
        if (attempt == kAttempts) {
          std::fprintf(stderr, "# racer %d: commit %ld did not land in %d attempts\n", process, n, kAttempts);
          return 1;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long>(random() % 5000)));
      }
    }
  }
  return 0;
}

}  // namespace

int SameStream(const Options& options) {
  constexpr int kProcesses = 8;
  const long commits = options.long_run ? 400 : 40;
  const auto deadline = Clock::now() + std::chrono::minutes(options.long_run ? 20 : 2);
  Report report("same-stream");
  report.processes = kProcesses;
  AckLog log;
  Shared<CommitTally> tallies(kProcesses);
  Processes racers;
  for (int p = 0; p < kProcesses; ++p)
    racers.Spawn([&, p] { return Race(p, commits, tallies[static_cast<std::size_t>(p)], log); });
  const int failed = racers.Wait(deadline);
  report.Expect(failed == 0, std::to_string(failed) + " racing processes failed");
  const CommitTally total = Sum(tallies);
  report.Expect(total.commits == kProcesses * commits, "every commit landed: " + std::to_string(total.commits) +
                                                           " of " + std::to_string(kProcesses * commits));
  report.Expect(total.conflicts > 0, "the processes raced (no conflict seen)");
  pq::Connection check = pq::Connect();
  CheckCommitted(report, check.get(), log, "race", total);
  report.Note(total.conflicts, "conflicts retried");
  return report.Finish(check.get());
}

}  // namespace stress
