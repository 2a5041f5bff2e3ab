#pragma once
// The drain of one lane: cycles run one at a time (a worker's and a
// settle's take turns), and the split of each claim between the lagging and
// the leading frontier follows where the last cycle found work (§4.5.3).
#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "react/drain_cycle.hpp"

namespace act::react {

class LaneController {
 public:
  // Claims only from its own lane (even the default one), so apps sharing a
  // database stay apart by lane.
  explicit LaneController(Lane lane) : lane_(std::move(lane)) {}

  // A caller besides the lane's own worker interrupts its claim waiting in
  // the server first, rather than wait for the cycle lock until it ends.
  CycleReport drain(CycleDeps& deps, AckMode mode);
  // The worker's cycle when parked: its claim waits in the server up to `wait` (parked_claim.hpp).
  CycleReport drain_parked(CycleDeps& deps, const std::string& conninfo, std::chrono::milliseconds wait);
  // Sends the acknowledgements a carried cycle left (before the lane waits, on stop).
  DrainResult flush(CycleDeps& deps);
  const Lane& lane() const noexcept { return lane_; }
  ParkedClaim& parked() noexcept { return parked_; }

 private:
  const Lane lane_;
  std::mutex cycle_;
  double lagging_share_ = 0.5;  // guarded by cycle_
  PendingAcks pending_;         // guarded by cycle_
  ParkedClaim parked_;
  CycleReport cycle(CycleDeps& deps, AckMode mode, const ParkedWait* parked);  // under cycle_
};

}  // namespace act::react
