#pragma once
// The drain scenarios' static subscriptions over the committers' streams
// (churn-P-K), the draining process, and the exactly-once checks.
#include <libpq-fe.h>

#include <string>

#include "processes.hpp"
#include "report.hpp"

namespace stress {

inline constexpr const char* kChurnPrefix = "churn";
inline constexpr int kChurnStreams = 3;  // per committing process

// Subscribes every source kind (all streams, a pattern, a pattern with names,
// literal streams) and creates the table drainers record handled events in.
void SetUpDrain(PGconn* connection, int committers);

struct DrainTally {
  long batches;  // leases acknowledged with their handled events
  long handled;
  long lost_leases;  // the lease had passed to another drainer: rolled back
  long in_batch;     // 1 while events are recorded but not yet acknowledged
};

struct DrainPlan {
  int committers = 0;
  std::string by;  // the lease holder's name
  int lease_ms = 2000;
  int pause_in_batch_ms = 0;  // holds each batch open this long (a drainer about to be killed)
};

// Claims, records each lease's events in stress_handled and acknowledges in the
// same transaction, until `done` is raised and no subscription has work left.
int Drain(const DrainPlan& plan, DrainTally& tally, long& done, Clock::time_point deadline);

// Every event matching a subscription handled exactly once for it and nothing
// else; no work left; no lease still held (an expired lease of a killed drainer,
// named victim-*, may remain).
void CheckDrained(Report& report, PGconn* connection, int committers);

}  // namespace stress
