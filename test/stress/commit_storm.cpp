// Commit storm: 8 processes commit to streams of their own, as fast as they can.
#include "commits.hpp"
#include "scenarios.hpp"

namespace stress {

int CommitStorm(const Options& options) {
  constexpr int kProcesses = 8;
  const CommitPlan plan{.prefix = "storm", .streams = 10, .commits = options.long_run ? 2500 : 250};
  const auto deadline = Clock::now() + std::chrono::minutes(options.long_run ? 20 : 2);
  Report report("commit-storm");
  report.processes = kProcesses;
  Committers committers(plan, kProcesses, deadline);
  committers.Stop();
  const int failed = committers.Wait();
  report.Expect(failed == 0, std::to_string(failed) + " committing processes failed");
  const CommitTally total = committers.Total();
  report.Expect(total.commits == kProcesses * plan.commits, std::to_string(total.commits) + " commits succeeded, " +
                                                                std::to_string(kProcesses * plan.commits) +
                                                                " were made");
  pq::Connection check = pq::Connect();
  CheckCommitted(report, check.get(), committers.log(), plan.prefix, total);
  return report.Finish(check.get());
}

}  // namespace stress
