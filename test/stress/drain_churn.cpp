// Drain under churn: 4 processes commit while 4 others drain the static
// subscriptions over their streams, until everything committed is handled.
#include "commits.hpp"
#include "drain.hpp"
#include "scenarios.hpp"

namespace stress {

int DrainUnderChurn(const Options& options) {
  constexpr int kCommitters = 4;
  constexpr int kDrainers = 4;
  const CommitPlan plan{.prefix = kChurnPrefix, .streams = kChurnStreams, .commits = options.long_run ? 3000 : 250};
  const auto deadline = Clock::now() + std::chrono::minutes(options.long_run ? 20 : 2);
  Report report("drain-under-churn");
  report.processes = kCommitters + kDrainers;
  {
    pq::Connection setup = pq::Connect();
    SetUpDrain(setup.get(), kCommitters);
  }
  Shared<DrainTally> drains(kDrainers);
  Shared<long> committed;  // raised once the committers are done
  Processes drainers;
  for (int p = 0; p < kDrainers; ++p) {
    // Both paths drain side by side, competing for the same rows.
    const DrainPlan drain{.committers = kCommitters,
                          .by = "drainer-" + std::to_string(p),
                          .path = p % 2 == 0 ? DrainPath::kClaimEvents : DrainPath::kClaimQueryAck};
    drainers.Spawn([&, p, drain] { return Drain(drain, drains[static_cast<std::size_t>(p)], committed[0], deadline); });
  }
  Committers committers(plan, kCommitters, deadline);
  committers.Stop();
  int failed = committers.Wait();
  Set(committed[0], 1);
  failed += drainers.Wait(deadline);
  report.Expect(failed == 0, std::to_string(failed) + " processes failed");
  long lost_leases = 0;
  for (DrainTally& drain : drains) lost_leases += Get(drain.lost_leases);
  pq::Connection check = pq::Connect();
  CheckCommitted(report, check.get(), committers.log(), kChurnPrefix, committers.Total());
  CheckDrained(report, check.get(), kCommitters);
  report.Note(lost_leases, "leases lost to another drainer");
  return report.Finish(check.get());
}

}  // namespace stress
