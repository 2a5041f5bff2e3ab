// Reactor: a projection's versions on this partition.
#include <stdexcept>
#include <thread>

#include "observe/observers.hpp"
#include "react/dispatch.hpp"
#include "react/projection_versions.hpp"
#include "react/reactor.hpp"
#include "store/reaction_calls.hpp"

namespace act::react {
namespace {

constexpr std::chrono::milliseconds kCatchUpPoll{10};
// Looks without progress before the switch is tried anyway (and refused
// while the version is behind): a lease held elsewhere may be a dead
// worker's, which runs out only with the lane's lease time.
constexpr int kIdleLooks = 100;

}  // namespace

const detail::ProjectionModel& Reactor::drained(const detail::ProjectionModel& version) const {
  const detail::ProjectionModel* found = registry_->projection_for(version.route.target);
  if (found == nullptr)
    throw std::invalid_argument("projection " + version.name + " version " + std::to_string(version.version) +
                                " is not drained by this app");
  return *found;
}

void Reactor::drain_until(const detail::ProjectionModel& projection, std::int64_t until) {
  LaneSlot& slot = slot_for(projection.route.lane);
  std::int64_t last_at = -2;
  for (int idle = 0; idle < kIdleLooks;) {
    const std::vector<Subscription> rows = app_.store().query_streams(StreamFilter::exactly(projection.route.target));
    if (rows.empty() || rows.front().blocked || rows.front().at >= until) return;
    idle = rows.front().at == last_at ? idle + 1 : 0;
    last_at = rows.front().at;
    const CycleReport report = slot.controller.drain(deps_, AckMode::kSend);
    // Held by a worker elsewhere, or not claimable yet: look again shortly.
    if (!report.handled_by_target.contains(projection.route.target)) std::this_thread::sleep_for(kCatchUpPoll);
  }
}

ProjectionLag Reactor::lag(const detail::ProjectionModel& version) {
  initialize();
  const detail::ProjectionModel& model = drained(version);
  return lag_of(app_.store().pool(), model, registry_->fetch_names(model.route.target));
}

SwitchResult Reactor::switch_to(const detail::ProjectionModel& version, const SwitchOptions& options) {
  initialize();
  const detail::ProjectionModel& model = drained(version);
  const std::vector<std::string> names = registry_->fetch_names(model.route.target);
  SwitchResult result;
  result.to = model.version;
  for (std::int32_t attempt = 0; attempt < options.attempts; ++attempt) {
    const std::vector<Subscription> rows = app_.store().query_streams(StreamFilter::exactly(model.route.target));
    if (!rows.empty()) drain_until(model, rows.front().correlated_at.value_or(rows.front().at));
    const SwitchStep step = react::switch_to(app_.store().pool(), model, names, options.max_lag);
    result.from = step.from;
    result.lag = step.lag;
    if (!step.switched) continue;
    result.switched = true;
    const std::vector<Committed> owed = registry_->handed_to(model, step.owed);
    const std::atomic<bool> never_stopping{false};
    for (const Committed& event : owed) {
      if (run_side_effect(app_, model, event, never_stopping)) ++result.side_effects_run;
    }
    if (step.from != model.version)
      app_.observers().log(LogLevel::kInfo, "projection version switched",
                           {{"projection", model.name},
                            {"from", std::to_string(step.from)},
                            {"to", std::to_string(model.version)},
                            {"lag", std::to_string(step.lag)}});
    return result;
  }
  return result;
}

void Reactor::drop_version(const std::string& name, std::int32_t version) {
  initialize();
  if (registry_->projection_for(projection_version_target(name, version)) != nullptr)
    throw std::logic_error("version " + std::to_string(version) + " of projection " + name +
                           " is drained by this app: deploy the app without it before dropping it");
  react::drop_version(app_.store().pool(), name, version);
}

std::optional<std::int32_t> Reactor::current_version(const std::string& name) {
  initialize();
  return react::current_version(app_.store().pool(), name);
}

}  // namespace act::react
