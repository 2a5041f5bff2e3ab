// Server crash: during a commit storm the server is stopped at once (no
// shutdown checkpoint: recovery must replay the WAL) and started again. Every
// commit that returned is still there, the chains verify, the horizon moves on.
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "commits.hpp"
#include "scenarios.hpp"

namespace stress {

int ServerCrash(const Options& options) {
  if (options.crash_command.empty()) {
    std::fprintf(stderr, "server-crash needs --crash-command\n");
    return 2;
  }
  constexpr int kProcesses = 8;
  const int crashes = options.long_run ? 6 : 2;
  const auto between = std::chrono::milliseconds(options.long_run ? 5000 : 1500);
  // No fixed count: committers go on, reconnecting, until the last restart is behind them.
  const CommitPlan plan{.prefix = "crash", .streams = 10, .commits = 0, .survive_restarts = true};
  const auto deadline = Clock::now() + std::chrono::minutes(options.long_run ? 20 : 3);
  Report report("server-crash");
  report.processes = kProcesses;
  Committers committers(plan, kProcesses, deadline);
  bool restarted = true;
  for (int crash = 0; crash < crashes && restarted; ++crash) {
    std::this_thread::sleep_for(between);
    restarted = std::system(options.crash_command.c_str()) == 0;
    ++report.faults;
  }
  report.Expect(restarted, "the crash command failed: " + options.crash_command);
  const long before = committers.Total().commits;
  std::this_thread::sleep_for(between);
  committers.Stop();
  const int failed = committers.Wait();
  report.Expect(failed == 0, std::to_string(failed) + " committing processes failed");
  const CommitTally total = committers.Total();
  report.Expect(total.reconnects >= report.faults, "the crashes cut no connection");
  report.Expect(total.commits > before, "no commit succeeded after the last restart");
  pq::Connection check = Reconnect(deadline);
  CheckCommitted(report, check.get(), committers.log(), plan.prefix, total);
  report.Note(total.in_doubt_commits, "commits in doubt");
  report.Note(total.reconnects, "reconnections");
  return report.Finish(check.get());
}

}  // namespace stress
