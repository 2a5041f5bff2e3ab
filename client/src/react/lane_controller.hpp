#pragma once
// The drain of one lane: cycles run one at a time (a worker's and a
// settle's take turns), and the split of each claim between the lagging and
// the leading frontier follows where the last cycle found work (§4.5.3).
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

  CycleReport drain(CycleDeps& deps, AckMode mode);
  // Sends the acknowledgements a carried cycle left (before the lane waits, on stop).
  DrainResult flush(CycleDeps& deps);
  const Lane& lane() const noexcept { return lane_; }

 private:
  const Lane lane_;
  std::mutex cycle_;
  double lagging_share_ = 0.5;  // guarded by cycle_
  PendingAcks pending_;         // guarded by cycle_
};

}  // namespace act::react
