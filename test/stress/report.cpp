#include "report.hpp"

#include <chrono>
#include <cstdio>
#include <utility>

#include "pq_session.hpp"

namespace stress {

namespace {
double Now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

Report::Report(std::string scenario) : scenario_(std::move(scenario)), started_(Now()) {}

void Report::Expect(bool held, const std::string& invariant) {
  ++checked_;
  if (held) return;
  ++violated_;
  std::fprintf(stderr, "# %s: VIOLATED: %s\n", scenario_.c_str(), invariant.c_str());
}

void Report::Note(long count, const std::string& what) { notes_ += ", " + std::to_string(count) + " " + what; }

int Report::Finish(PGconn* connection) {
  pq::Result mode = pq::Run(connection, "SELECT act.mode()");
  std::printf("%s (%s): %d processes, %ld commits, %ld events committed, %ld faults injected, %ld events lost%s; ",
              scenario_.c_str(), PQgetvalue(mode.get(), 0, 0), processes, commits, events, faults, lost,
              notes_.c_str());
  if (violated_ == 0)
    std::printf("%d invariants held (%.1f s)\n", checked_, Now() - started_);
  else
    std::printf("%d of %d invariants VIOLATED (%.1f s)\n", violated_, checked_, Now() - started_);
  std::fflush(stdout);
  return violated_ == 0 ? 0 : 1;
}

}  // namespace stress
