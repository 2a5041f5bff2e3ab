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
  long lost_leases;  // the lease had passed to another drainer: nothing recorded
  long in_batch;     // 1 while events are recorded but not yet acknowledged
};

// How a drainer takes its work.
enum class DrainPath {
  // act.claim_events, one call a cycle: it hands each stream's events, and
  // the acks of the batch recorded in the same transaction ride on it.
  kClaimEvents,
  // act.claim, one act.query a stream, act.ack: a lost lease (ack dropped)
  // rolls the batch back.
  kClaimQueryAck,
};

struct DrainPlan {
  int committers = 0;
  std::string by;  // the lease holder's name
  int lease_ms = 2000;
  int pause_in_batch_ms = 0;  // holds each batch open this long (a drainer about to be killed)
  DrainPath path = DrainPath::kClaimEvents;
};

// Claims, records each lease's events in stress_handled and acknowledges in the
// same transaction, until `done` is raised and no subscription has work left.
// A batch is recorded as an exactly-once consumer does it: above the
// subscription's watermark of its own (stress_watermarks, row-locked), which
// moves in the same transaction. An ack carried by act.claim_events is
// dropped silently when the lease was lost; the watermark keeps another
// drainer handed the same events from recording them again.
int Drain(const DrainPlan& plan, DrainTally& tally, long& done, Clock::time_point deadline);

// Every event matching a subscription handled exactly once for it and nothing
// else; no work left; no lease still held (an expired lease of a killed drainer,
// named victim-*, may remain).
void CheckDrained(Report& report, PGconn* connection, int committers);

}  // namespace stress
