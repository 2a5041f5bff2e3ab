#pragma once
// The committing process of the storm, drain and crash scenarios, and the
// checks of the log it leaves.
#include <libpq-fe.h>

#include <string>

#include "ack_log.hpp"
#include "pq_session.hpp"
#include "processes.hpp"
#include "report.hpp"
#include "shared.hpp"

namespace stress {

struct CommitTally {
  long commits;
  long events;
  long in_doubt_commits;  // the connection was lost before the result arrived
  long in_doubt_events;
  long conflicts;
  long reconnects;
};
CommitTally Sum(Shared<CommitTally>& tallies);

struct CommitPlan {
  std::string prefix;  // process P writes streams prefix-P-0 .. prefix-P-(streams-1)
  int streams = 10;
  long commits = 0;               // at least this many, then on until `stop` is raised
  bool survive_restarts = false;  // a lost connection: count the commit in doubt, reconnect, go on
};

// Commits 1 to 3 events at a time, round-robin over the process's streams, without an
// expected version; each event carries a unique token (data.t). Returns the exit status.
int Commit(const CommitPlan& plan, int process, CommitTally& tally, long& stop, const AckLog& log,
           Clock::time_point deadline);

// Committing processes sharing one plan, started at construction.
class Committers {
 public:
  Committers(const CommitPlan& plan, int processes, Clock::time_point deadline);

  // From now on each process stops once it has made plan.commits commits.
  void Stop() { Set(stop_[0], 1); }
  // Reaps them; returns how many failed.
  int Wait() { return processes_.Wait(deadline_); }
  CommitTally Total() { return Sum(tallies_); }
  const AckLog& log() const { return log_; }

 private:
  Clock::time_point deadline_;
  AckLog log_;
  Shared<CommitTally> tallies_;
  Shared<long> stop_;
  Processes processes_;  // last: its children are killed before what they share goes away
};

// The log's invariants for streams named prefix-*: every acknowledged event is
// there as acknowledged, versions are unique and gap-free from 0, the count is
// the acknowledged events (plus at most those in doubt), every chain verifies
// and a reader following `after` sees the whole log.
void CheckCommitted(Report& report, PGconn* connection, const AckLog& log, const std::string& prefix,
                    const CommitTally& total);

// Connects, retrying until the deadline (the server may be restarting); notices are dropped.
pq::Connection Reconnect(Clock::time_point deadline);

}  // namespace stress
