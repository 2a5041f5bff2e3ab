#include "react/lane_controller.hpp"

#include <algorithm>
#include <cmath>

namespace act::react {

CycleReport LaneController::drain(CycleDeps& deps, AckMode mode) {
  parked_.cancel_waiting();
  const std::lock_guard lock(cycle_);
  return cycle(deps, mode, nullptr);
}

CycleReport LaneController::drain_parked(CycleDeps& deps, const std::string& conninfo, std::chrono::milliseconds wait) {
  const std::lock_guard lock(cycle_);
  const ParkedWait parked{parked_, conninfo, wait};
  return cycle(deps, AckMode::kCarry, &parked);
}

CycleReport LaneController::cycle(CycleDeps& deps, AckMode mode, const ParkedWait* parked) {
  const auto lagging = static_cast<std::int32_t>(std::ceil(lane_.streams * lagging_share_));
  const std::int32_t leading = lane_.streams - lagging;
  CycleReport report = run_cycle(deps, lane_, lagging, leading, pending_, mode, parked);
  const double lag_average = lagging > 0 ? static_cast<double>(report.handled_lagging) / lagging : 0.0;
  const double lead_average = leading > 0 ? static_cast<double>(report.handled_leading) / leading : 0.0;
  lagging_share_ = (lag_average + lead_average) == 0.0 ? 0.5
                                                       : std::clamp(lag_average / (lag_average + lead_average), 0.2, 0.8);
  return report;
}

DrainResult LaneController::flush(CycleDeps& deps) {
  parked_.cancel_waiting();
  const std::lock_guard lock(cycle_);
  return flush_acks(deps, lane_, pending_);
}

}  // namespace act::react
