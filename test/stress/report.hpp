#pragma once
// What a scenario found: its invariants, each checked once at the end, and a
// one-line summary (events committed, faults injected, events lost).
#include <libpq-fe.h>

#include <string>

namespace stress {

struct Options {
  bool long_run = false;      // make stress: the long version
  std::string crash_command;  // server-crash: stops the server at once and starts it again
};

class Report {
 public:
  explicit Report(std::string scenario);

  // Records one invariant; a violated one is printed at once.
  void Expect(bool held, const std::string& invariant);
  // Appends "N what" to the summary line.
  void Note(long count, const std::string& what);
  // Prints the summary line; returns the exit status (non-zero on any violation).
  int Finish(PGconn* connection);

  int processes = 0;
  long commits = 0;
  long events = 0;
  long faults = 0;
  long lost = 0;

 private:
  std::string scenario_;
  std::string notes_;
  int checked_ = 0;
  int violated_ = 0;
  double started_;
};

}  // namespace stress
