#include "act/partitioned_app.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>

#include "act/errors.hpp"
#include "app/app_core.hpp"
#include "app/close_books.hpp"
#include "partitions/combined_projection.hpp"
#include "partitions/combined_worker.hpp"

namespace act {
namespace {

// A partition the loop could not reach, reported as a refused worker cycle is.
ReactionFailure refused(const PartitionError& error) {
  return ReactionFailure{{}, std::nullopt, {}, error.what(), 0, false, {}, {}};
}

std::vector<App> build_apps(const PartitionMap& map, const PartitionedApp::PartitionFactory& build) {
  if (!build) throw std::invalid_argument("PartitionedApp: no function to build the apps");
  std::vector<App> apps;
  apps.reserve(static_cast<std::size_t>(map.partitions()));
  for (std::int32_t p = 0; p < map.partitions(); ++p) {
    App built = build(map.pool(p), p).build();
    // An app on another pool would write this partition's streams elsewhere.
    if (&built.pool() != map.pool(p).get())
      throw std::invalid_argument("PartitionedApp: the app of partition " + std::to_string(p) +
                                  " is not built on the pool it was given");
    apps.push_back(std::move(built));
  }
  return apps;
}

// Used while the constructor runs only: it may hold build by reference.
PartitionedApp::PartitionFactory ignoring_partition(const PartitionedApp::Factory& build) {
  if (!build) return {};
  return [&build](std::shared_ptr<ConnectionPool> pool, std::int32_t) { return build(std::move(pool)); };
}

}  // namespace

void detail::rethrow_in_partition(std::int32_t partition, std::int32_t partitions) {
  try {
    throw;
  } catch (const PartitionError&) {
    throw;  // named already, by the partition it happened on
  } catch (const StoreError& error) {
    throw PartitionError(partition, partitions, error);
  }
}

PartitionedApp::PartitionedApp(PartitionMap map, const Factory& build)
    : PartitionedApp(std::move(map), ignoring_partition(build)) {}

PartitionedApp::PartitionedApp(PartitionMap map, const PartitionFactory& build)
    : map_(std::move(map)), apps_(build_apps(map_, build)), runner_(std::make_unique<partitions::CombinedRunner>()) {
  auto cores = std::make_shared<app_detail::PartitionRoute::Cores>();
  for (const App& built : apps_) cores->push_back(built.core_);
  // Before any worker runs: nothing reads the route concurrently with this.
  for (std::int32_t p = 0; p < partitions(); ++p) apps_[static_cast<std::size_t>(p)].core_->route.emplace(p, cores);
}

PartitionedApp::PartitionedApp(PartitionedApp&&) noexcept = default;

PartitionedApp& PartitionedApp::operator=(PartitionedApp&& other) noexcept {
  if (this == &other) return *this;
  shutdown();  // this app's workers stop before what they use goes
  map_ = std::move(other.map_);
  apps_ = std::move(other.apps_);
  combined_ = std::move(other.combined_);
  runner_ = std::move(other.runner_);
  return *this;
}

PartitionedApp::~PartitionedApp() { shutdown(); }

App& PartitionedApp::app(std::int32_t partition) {
  if (partition < 0 || partition >= partitions())
    throw std::out_of_range("PartitionedApp: partition " + std::to_string(partition) + " of " +
                            std::to_string(partitions()));
  return apps_[static_cast<std::size_t>(partition)];
}

ActionResult PartitionedApp::do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                                       const DoOptions& options) {
  const std::int32_t partition = partition_of(target.stream);
  ActionResult result = on_partition(partition, [&](App& app) { return app.do_action(action, target, payload, options); });
  const std::lock_guard lock(runner_->mutex);
  if (runner_->worker) runner_->worker->wake(partition);
  return result;
}

void PartitionedApp::add(const Projection& projection, std::shared_ptr<ConnectionPool> read_model) {
  const std::lock_guard lock(runner_->mutex);
  if (runner_->worker)
    throw std::logic_error("PartitionedApp::add(" + projection.target() + "): the workers have started already");
  for (const auto& added : combined_) {
    if (added->target() == projection.target())
      throw std::invalid_argument("PartitionedApp::add: projection " + projection.target() + " is added twice");
  }
  combined_.push_back(
      std::make_shared<partitions::CombinedProjection>(projection.model(), std::move(read_model), partitions()));
}

partitions::CombinedProjection& PartitionedApp::combined(const Projection& projection) {
  for (const auto& added : combined_) {
    if (added->target() == projection.target()) return *added;
  }
  throw std::invalid_argument("PartitionedApp: projection " + projection.target() + " was not added to it");
}

std::vector<std::int64_t> PartitionedApp::positions(const Projection& projection) {
  return combined(projection).positions();
}

DrainResult PartitionedApp::step_combined(bool until_caught_up, std::vector<bool>* unreachable) {
  const partitions::Locking locking = until_caught_up ? partitions::Locking::kWait : partitions::Locking::kSkipLocked;
  DrainResult total;
  for (std::size_t c = 0; c < combined_.size(); ++c) {
    for (std::int32_t p = 0; p < partitions(); ++p) {
      const std::size_t slot = c * static_cast<std::size_t>(partitions()) + static_cast<std::size_t>(p);
      if (unreachable != nullptr && (*unreachable)[slot]) continue;  // reported once
      for (;;) {
        const partitions::Step step =
            partitions::step_and_report(*combined_[c], p, *app(p).core_, partitions(), locking, false);
        total += step.drained;
        const bool database_failed = step.drained.failed > 0 && !step.drained.failures.back().event_id;
        if (unreachable != nullptr && database_failed) (*unreachable)[slot] = true;
        if (!until_caught_up || !step.more) break;
      }
    }
  }
  return total;
}

RebuildProgress PartitionedApp::rebuild(const Projection& projection,
                                        const std::function<void(const RebuildProgress&)>& on_progress) {
  const auto added = std::find_if(combined_.begin(), combined_.end(),
                                  [&](const auto& each) { return each->target() == projection.target(); });
  if (added == combined_.end()) return rebuild_in_each(projection, on_progress);
  partitions::CombinedProjection& rebuilt = **added;
  rebuilt.rewind();
  RebuildProgress progress;
  progress.target = rebuilt.target();
  for (std::int32_t p = 0; p < partitions(); ++p) {
    for (;;) {
      const partitions::Step step =
          partitions::step_and_report(rebuilt, p, *app(p).core_, partitions(), partitions::Locking::kWait, false);
      progress.applied += step.drained.handled;
      if (step.drained.failed > 0) {
        progress.blocked = true;
        progress.error = step.drained.failures.back().error;
      }
      if (on_progress) on_progress(progress);
      if (step.drained.failed > 0) return progress;
      if (!step.more) break;
    }
  }
  return progress;
}

std::int64_t PartitionedApp::forget(std::string_view stream) {
  return on_stream(stream, [&](App& app) { return app.forget(stream); });
}

CorrelateResult PartitionedApp::correlate() {
  CorrelateResult total;
  on_every_partition([&](App& app, std::int32_t) {
    const CorrelateResult result = app.correlate();
    total.scanned = total.scanned || result.scanned;
    total.events += result.events;
    total.subscribed += result.subscribed;
    total.marked += result.marked;
  });
  return total;
}

DrainResult PartitionedApp::drain() {
  DrainResult total;
  for (std::int32_t p = 0; p < partitions(); ++p) {
    try {
      total += on_partition(p, [](App& app) { return app.drain(); });
    } catch (const PartitionError& error) {
      total.add_failure(refused(error));
    }
  }
  total += step_combined(false, nullptr);
  return total;
}

SettleResult PartitionedApp::settle(const SettleOptions& options) {
  std::this_thread::sleep_for(options.debounce);  // once, not once per partition
  SettleOptions each = options;
  each.debounce = std::chrono::milliseconds(0);
  each.throw_on_failure = false;
  SettleResult total;
  std::vector<bool> unreachable(static_cast<std::size_t>(partitions()), false);
  std::vector<bool> combined_unreachable(combined_.size() * static_cast<std::size_t>(partitions()), false);
  for (int round = 0; round < options.max_passes; ++round) {
    bool progressed = false;
    for (std::int32_t p = 0; p < partitions(); ++p) {
      if (unreachable[static_cast<std::size_t>(p)]) continue;  // reported once
      try {
        const SettleResult settled = on_partition(p, [&](App& app) { return app.settle(each); });
        total.passes += settled.passes;
        total.subscribed += settled.subscribed;
        total.drained += settled.drained;
        progressed = progressed || settled.subscribed > 0 || settled.drained.progressed();
      } catch (const PartitionError& error) {
        unreachable[static_cast<std::size_t>(p)] = true;
        total.drained.add_failure(refused(error));
      }
    }
    const DrainResult combined = step_combined(true, &combined_unreachable);
    total.drained += combined;
    progressed = progressed || combined.handled > 0;
    if (!progressed) break;
  }
  if (options.throw_on_failure && total.drained.failed > 0) throw SettleError(std::move(total));
  return total;
}

SettleResult PartitionedApp::settle_or_throw(SettleOptions options) {
  options.throw_on_failure = true;
  return settle(options);
}

void PartitionedApp::start(const WorkerOptions& options) {
  // Set up first: a read model that cannot be (another partition count, a
  // failing setup) is refused here, not logged by its worker for ever.
  for (const auto& projection : combined_) projection->set_up();
  // A partition that fails to start: the others start all the same, and
  // start() again starts it (started ones are left as they are).
  std::exception_ptr first_failure;
  try {
    on_every_partition([&](App& app, std::int32_t) { app.start(options); });
  } catch (const PartitionError&) {
    first_failure = std::current_exception();
  }
  const std::lock_guard lock(runner_->mutex);
  if (!runner_->worker) {
    std::vector<std::shared_ptr<partitions::CombinedProjection>> projections;
    for (const auto& projection : combined_) {
      // only_lanes: the projection runs in the processes started for its lane.
      if (options.only_lanes.empty() || options.only_lanes.contains(projection->model().route.lane))
        projections.push_back(projection);
    }
    if (!projections.empty()) {
      std::vector<std::shared_ptr<app_detail::AppCore>> cores;
      for (const App& started : apps_) cores.push_back(started.core_);
      runner_->worker = std::make_unique<partitions::CombinedWorker>(std::move(projections), std::move(cores));
    }
  }
  if (first_failure) std::rethrow_exception(first_failure);
}

RebuildProgress PartitionedApp::rebuild_in_each(const Projection& projection,
                                                const std::function<void(const RebuildProgress&)>& on_progress) {
  RebuildProgress total;
  total.target = projection.target();
  on_every_partition([&](App& app, std::int32_t) {
    const std::int64_t before = total.applied;
    const RebuildProgress rebuilt = app.rebuild(projection, [&](const RebuildProgress& progress) {
      total.applied = before + progress.applied;
      if (on_progress) on_progress(total);
    });
    total.applied = before + rebuilt.applied;
    if (rebuilt.blocked) {
      total.blocked = true;
      total.error = rebuilt.error;
    }
  });
  return total;
}

CloseResult PartitionedApp::close(const std::vector<CloseTarget>& targets) {
  app_detail::check_targets(targets);  // all of them before any partition closes its own
  std::vector<std::vector<CloseTarget>> by_partition(static_cast<std::size_t>(partitions()));
  for (const CloseTarget& target : targets)
    by_partition[static_cast<std::size_t>(partition_of(target.stream))].push_back(target);
  CloseResult total;
  on_every_partition([&](App& app, std::int32_t p) {
    std::vector<CloseTarget> mine = by_partition[static_cast<std::size_t>(p)];
    if (mine.empty()) return;
    // A read model over all partitions that has not applied a stream's last
    // event would never see the events the close deletes: left as it is.
    const std::vector<std::string> lagging = unapplied(p, mine);
    std::erase_if(mine, [&](const CloseTarget& target) {
      return std::find(lagging.begin(), lagging.end(), target.stream) != lagging.end();
    });
    total.skipped.insert(total.skipped.end(), lagging.begin(), lagging.end());
    if (mine.empty()) return;
    CloseResult closed = app.close(mine);
    total.truncated.merge(closed.truncated);
    total.skipped.insert(total.skipped.end(), closed.skipped.begin(), closed.skipped.end());
  });
  return total;
}

std::vector<std::string> PartitionedApp::unapplied(std::int32_t partition, const std::vector<CloseTarget>& targets) {
  std::vector<std::string> lagging;
  if (combined_.empty()) return lagging;
  for (const auto& projection : combined_) {
    if (!projection->reads(partition)) continue;
    for (;;) {  // caught up first, as close correlates first
      const partitions::Step step = partitions::step_and_report(*projection, partition, *app(partition).core_,
                                                                partitions(), partitions::Locking::kWait, false);
      if (!step.more) break;
    }
  }
  // Each stream's last event, in one call; then each read model's position here, once.
  StatsQuery heads;
  heads.streams.emplace();
  for (const CloseTarget& target : targets) heads.streams->push_back(target.stream);
  const std::vector<StreamStats> stats = app(partition).core_->store.query_stats(heads);
  std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
  for (const auto& projection : combined_)
    if (projection->reads(partition)) lowest = std::min(lowest, projection->positions()[static_cast<std::size_t>(partition)]);
  for (const StreamStats& stream : stats)
    if (stream.head.id > lowest) lagging.push_back(stream.stream);
  return lagging;
}

std::vector<Subscription> PartitionedApp::blocked_streams(const std::optional<std::string>& after, std::int32_t limit) {
  std::vector<Subscription> merged;
  on_every_partition([&](App& app, std::int32_t) {
    std::vector<Subscription> blocked = app.blocked_streams(after, limit);
    merged.insert(merged.end(), std::make_move_iterator(blocked.begin()), std::make_move_iterator(blocked.end()));
  });
  std::sort(merged.begin(), merged.end(), [](const Subscription& a, const Subscription& b) { return a.stream < b.stream; });
  if (merged.size() > static_cast<std::size_t>(std::max(limit, 0))) merged.resize(static_cast<std::size_t>(std::max(limit, 0)));
  return merged;
}

std::int32_t PartitionedApp::unblock(const StreamFilter& streams) {
  std::int32_t total = 0;
  on_every_partition([&](App& app, std::int32_t) { total += app.unblock(streams); });
  return total;
}

std::int32_t PartitionedApp::reset(const StreamFilter& streams) {
  std::int32_t total = 0;
  on_every_partition([&](App& app, std::int32_t) { total += app.reset(streams); });
  return total;
}

std::int32_t PartitionedApp::prioritize(const StreamFilter& streams, std::int32_t priority) {
  std::int32_t total = 0;
  on_every_partition([&](App& app, std::int32_t) { total += app.prioritize(streams, priority); });
  return total;
}

void PartitionedApp::stop_combined(std::optional<std::chrono::milliseconds> grace) {
  if (!runner_) return;  // moved from
  std::unique_ptr<partitions::CombinedWorker> worker;
  {
    const std::lock_guard lock(runner_->mutex);
    worker = std::move(runner_->worker);
  }
  if (!worker) return;
  if (grace) {
    worker->stop(*grace);
  } else {
    worker->stop();
  }
}

void PartitionedApp::shutdown() {
  stop_combined(std::nullopt);
  for (App& app : apps_) app.shutdown();
}

void PartitionedApp::shutdown(std::chrono::milliseconds grace) {
  const auto deadline = std::chrono::steady_clock::now() + grace;
  stop_combined(grace);  // stops after the page in hand, or is let go at the grace
  for (App& app : apps_) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    app.shutdown(std::max(left, std::chrono::milliseconds(0)));
  }
}

}  // namespace act
