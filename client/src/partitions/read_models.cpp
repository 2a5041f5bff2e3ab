#include "partitions/read_models.hpp"

#include <algorithm>
#include <limits>

#include "act/errors.hpp"
#include "observe/observers.hpp"

namespace act::partitions {
namespace {

using Clock = std::chrono::steady_clock;

// A failing step is retried after 100 ms, doubling to 30 s.
constexpr std::chrono::milliseconds kFailedFirst{100};
constexpr std::chrono::milliseconds kFailedMax{30'000};

}  // namespace

Step step_and_report(CombinedProjection& projection, std::int32_t partition, react::AppPort& app,
                     const react::Registry& registry, std::int32_t partitions, Locking locking, bool worker) {
  Step step;
  std::string error;
  try {
    step = projection.step(partition, PartitionSource{&app.store().pool(), &registry}, locking);
  } catch (const StoreError& failed) {
    error = failed.what();
  } catch (const std::exception& failed) {
    if (!worker) throw;  // a misconfiguration: drain and settle throw it to their caller
    error = failed.what();
  } catch (...) {
    if (!worker) throw;
    error = "a handler or setup threw a non-exception";
  }
  if (!error.empty()) {
    ReactionFailure failure;
    failure.target = projection.target();
    failure.reaction = projection.target();
    failure.error = "projection " + projection.target() + ", partition " + std::to_string(partition) + " of " +
                    std::to_string(partitions) + ": " + error;
    step.drained.add_failure(std::move(failure));
  }
  // A worker's caller logs the failures no listener heard (Observers::log_unheard).
  for (const ReactionFailure& failure : step.drained.failures)
    app.observers().heard_failure("read model over all partitions", failure);
  return step;
}

void ReadModels::add(const std::vector<std::shared_ptr<CombinedProjection>>& projections, std::int32_t partition,
                     std::int32_t partitions) {
  partition_ = partition;
  partitions_ = partitions;
  for (const auto& projection : projections)
    if (projection->reads(partition_)) slots_.push_back(Slot{projection});
}

bool ReadModels::in_lane(std::string_view lane) const {
  return std::ranges::any_of(slots_, [&](const Slot& slot) { return slot.projection->model().route.lane == lane; });
}

bool ReadModels::reads(std::string_view event_name) const {
  return std::ranges::any_of(slots_, [&](const Slot& slot) {
    const auto& handlers = slot.projection->model().handlers;
    return handlers.empty() || handlers.contains(event_name);
  });
}

DrainResult ReadModels::step(react::AppPort& app, const react::Registry& registry, const std::string* lane, Pace pace,
                             bool worker) {
  const Locking locking = pace == Pace::kUntilCaughtUp ? Locking::kWait : Locking::kSkipLocked;
  DrainResult total;
  for (Slot& slot : slots_) {
    if (lane != nullptr && slot.projection->model().route.lane != *lane) continue;
    if (worker) {
      const std::lock_guard lock(backoff_mutex_);
      if (slot.due > Clock::now()) continue;
    }
    for (;;) {
      const Step step = step_and_report(*slot.projection, partition_, app, registry, partitions_, locking, worker);
      total += step.drained;
      const bool failed = step.drained.failed > 0;
      if (worker) {
        const std::lock_guard lock(backoff_mutex_);
        slot.backoff = failed ? std::clamp(slot.backoff * 2, kFailedFirst, kFailedMax) : std::chrono::milliseconds(0);
        slot.due = Clock::now() + slot.backoff;
      }
      if (failed || pace == Pace::kOnce || !step.more) break;
    }
  }
  return total;
}

std::vector<std::string> ReadModels::unapplied(react::AppPort& app, const react::Registry& registry,
                                               const std::vector<CloseTarget>& targets) {
  std::vector<std::string> lagging;
  if (slots_.empty() || targets.empty()) return lagging;
  (void)step(app, registry, nullptr, Pace::kUntilCaughtUp, false);  // caught up first, as close correlates first
  // Each stream's last event, in one call; then each read model's position here, once.
  StatsQuery heads;
  heads.streams.emplace();
  for (const CloseTarget& target : targets) heads.streams->push_back(target.stream);
  const std::vector<StreamStats> stats = app.store().query_stats(heads);
  std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
  for (const Slot& slot : slots_)
    lowest = std::min(lowest, slot.projection->positions()[static_cast<std::size_t>(partition_)]);
  for (const StreamStats& stream : stats)
    if (stream.head.id > lowest) lagging.push_back(stream.stream);
  return lagging;
}

}  // namespace act::partitions
