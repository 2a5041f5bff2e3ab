// Killed worker: while 4 processes commit and 2 drain, drainers are started
// in pairs and SIGKILLed in the middle of a batch (events recorded, lease not
// yet acknowledged). Their leases must expire and be claimed again by the
// survivors, who finish the work: nothing lost, nothing handled twice.
#include <thread>
#include <vector>

#include "commits.hpp"
#include "drain.hpp"
#include "scenarios.hpp"

namespace stress {

namespace {

constexpr int kLeaseMs = 300;

// How many leases the named drainers hold (within their window or not).
long LeasesHeldBy(const std::vector<std::string>& names) {
  pq::Connection connection = pq::Connect();
  std::string list;
  for (const std::string& name : names) list += std::string(list.empty() ? "'" : ", '") + name + "'";
  return pq::Scalar(connection.get(), "SELECT count(*) FROM act.subscriptions WHERE leased_by IN (" + list + ")");
}

}  // namespace

int KilledWorker(const Options& options) {
  constexpr int kCommitters = 4;
  constexpr int kSurvivors = 2;
  constexpr int kVictimsPerRound = 2;
  const int rounds = options.long_run ? 25 : 4;
  // Committers go on until the kills are over, so killed drainers always find work.
  const CommitPlan plan{.prefix = kChurnPrefix, .streams = kChurnStreams, .commits = options.long_run ? 1000 : 100};
  const auto deadline = Clock::now() + std::chrono::minutes(options.long_run ? 20 : 2);
  Report report("killed-worker");
  report.processes = kCommitters + kSurvivors + rounds * kVictimsPerRound;
  {
    pq::Connection setup = pq::Connect();
    SetUpDrain(setup.get(), kCommitters);
  }
  Shared<DrainTally> survivors_tally(kSurvivors);
  Shared<DrainTally> victims_tally(static_cast<std::size_t>(rounds * kVictimsPerRound));
  Shared<long> flags(2);  // [0] committers done, [1] never raised (victims never finish on their own)
  Committers committers(plan, kCommitters, deadline);
  Processes survivors;
  for (int p = 0; p < kSurvivors; ++p) {
    const DrainPlan drain{.committers = kCommitters,
                          .by = "survivor-" + std::to_string(p),
                          .lease_ms = kLeaseMs,
                          .path = p % 2 == 0 ? DrainPath::kClaimEvents : DrainPath::kClaimQueryAck};
    survivors.Spawn(
        [&, p, drain] { return Drain(drain, survivors_tally[static_cast<std::size_t>(p)], flags[0], deadline); });
  }

  long in_batch_kills = 0;
  long orphaned_leases = 0;
  for (int round = 0; round < rounds; ++round) {
    Processes victims;
    std::vector<pid_t> pids;
    std::vector<std::string> names;
    for (int v = 0; v < kVictimsPerRound; ++v) {
      const int index = round * kVictimsPerRound + v;
      DrainTally& tally = victims_tally[static_cast<std::size_t>(index)];
      const DrainPlan drain{.committers = kCommitters,
                            .by = "victim-" + std::to_string(index),
                            .lease_ms = kLeaseMs,
                            .pause_in_batch_ms = 60000,
                            .path = v % 2 == 0 ? DrainPath::kClaimEvents : DrainPath::kClaimQueryAck};
      names.push_back(drain.by);
      pids.push_back(victims.Spawn([&, drain] { return Drain(drain, tally, flags[1], deadline); }));
    }
    // Kill each in the middle of a batch; one that found no work by then is killed anyway.
    const auto give_up = Clock::now() + std::chrono::seconds(10);
    for (int v = 0; v < kVictimsPerRound; ++v) {
      DrainTally& tally = victims_tally[static_cast<std::size_t>(round * kVictimsPerRound + v)];
      while (Get(tally.in_batch) == 0 && Clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      in_batch_kills += Get(tally.in_batch);
      victims.Kill(pids[static_cast<std::size_t>(v)]);
      ++report.faults;
    }
    orphaned_leases += LeasesHeldBy(names);
  }
  committers.Stop();
  int failed = committers.Wait();
  Set(flags[0], 1);
  failed += survivors.Wait(deadline);
  report.Expect(failed == 0, std::to_string(failed) + " committing or surviving processes failed");
  report.Expect(in_batch_kills > 0 && orphaned_leases > 0, "no drainer was killed holding a batch");
  // A killed drainer may have held a lease on a row that had no work left; let it expire.
  std::this_thread::sleep_for(std::chrono::milliseconds(kLeaseMs));
  pq::Connection check = pq::Connect();
  CheckCommitted(report, check.get(), committers.log(), kChurnPrefix, committers.Total());
  CheckDrained(report, check.get(), kCommitters);
  report.Note(in_batch_kills, "killed in a batch");
  report.Note(orphaned_leases, "leases left by killed drainers");
  long lost_leases = 0;
  for (DrainTally& drain : survivors_tally) lost_leases += Get(drain.lost_leases);
  report.Note(lost_leases, "leases lost to another drainer");
  return report.Finish(check.get());
}

}  // namespace stress
