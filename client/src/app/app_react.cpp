// App: the reaction side, handed to each partition's reactor.
#include <algorithm>
#include <thread>

#include "act/app.hpp"
#include "app/app_core.hpp"
#include "db/transact.hpp"
#include "partitions/read_models.hpp"

namespace act {

namespace {

// A partition the call could not reach, reported as a refused worker cycle is.
ReactionFailure refused(const PartitionError& error) {
  return ReactionFailure{{}, std::nullopt, {}, error.what(), 0, false, {}, {}};
}

}  // namespace

CorrelateResult App::correlate() {
  if (partitions() == 1) return cores_.front()->reactor->correlate();
  CorrelateResult total;
  on_every_partition(partitions(), [&](std::int32_t p) {
    const CorrelateResult result = cores_[static_cast<std::size_t>(p)]->reactor->correlate();
    total.scanned = total.scanned || result.scanned;
    total.events += result.events;
    total.subscribed += result.subscribed;
    total.marked += result.marked;
  });
  return total;
}

DrainResult App::drain() {
  if (partitions() == 1) return cores_.front()->reactor->drain();
  DrainResult total;
  for (std::int32_t p = 0; p < partitions(); ++p) {
    try {
      total += in_partition(p, partitions(), [&] { return cores_[static_cast<std::size_t>(p)]->reactor->drain(); });
    } catch (const PartitionError& error) {
      total.add_failure(refused(error));
    }
  }
  return total;
}

SettleResult App::settle(const SettleOptions& options) {
  if (partitions() == 1) return cores_.front()->reactor->settle(options);
  return settle_partitions(options);
}

SettleResult App::settle_partitions(const SettleOptions& options) {
  std::this_thread::sleep_for(options.debounce);  // once, not once per partition
  SettleOptions each = options;
  each.debounce = std::chrono::milliseconds(0);
  each.throw_on_failure = false;
  SettleResult total;
  std::vector<bool> unreachable(cores_.size(), false);
  for (int round = 0; round < options.max_passes; ++round) {
    bool progressed = false;
    for (std::int32_t p = 0; p < partitions(); ++p) {
      const auto index = static_cast<std::size_t>(p);
      if (unreachable[index]) continue;  // reported once
      try {
        const SettleResult settled =
            in_partition(p, partitions(), [&] { return cores_[index]->reactor->settle(each); });
        total.passes += settled.passes;
        total.subscribed += settled.subscribed;
        total.drained += settled.drained;
        progressed = progressed || settled.subscribed > 0 || settled.drained.progressed();
        // A failure with no event is a database the partition's steps could
        // not reach (a read model's step reports it so): reported once.
        unreachable[index] = std::ranges::any_of(settled.drained.failures,
                                                 [](const ReactionFailure& failure) { return !failure.event_id; });
      } catch (const PartitionError& error) {
        unreachable[index] = true;
        total.drained.add_failure(refused(error));
      }
    }
    if (!progressed) break;
  }
  if (options.throw_on_failure && total.drained.failed > 0) throw SettleError(std::move(total));
  return total;
}

SettleResult App::settle_or_throw(SettleOptions options) {
  options.throw_on_failure = true;
  return settle(options);
}

void App::start(const WorkerOptions& options) {
  // Set up first: a read model that cannot be (another partition count, a
  // failing setup) is refused here, not logged by its workers for ever.
  for (const auto& read_model : read_models_) read_model->set_up();
  // A partition that fails to start: the others start all the same, and
  // start() again starts it (started ones are left as they are).
  on_every_partition(partitions(),
                     [&](std::int32_t p) { cores_[static_cast<std::size_t>(p)]->reactor->start(options); });
}

void App::shutdown() {
  for (const Core& core : cores_) core->reactor->shutdown();
}

void App::shutdown(std::chrono::milliseconds grace) {
  // The grace is for all partitions together, not for each.
  const auto deadline = std::chrono::steady_clock::now() + grace;
  for (const Core& core : cores_) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    core->reactor->shutdown(std::max(left, std::chrono::milliseconds(0)));
  }
}

std::vector<Subscription> App::blocked_streams(const std::optional<std::string>& after, std::int32_t limit) {
  return stores_->blocked_streams(after, limit);
}

std::int32_t App::unblock(const StreamFilter& streams) {
  const std::int32_t count = stores_->unblock(streams);
  if (count > 0)
    for (const Core& core : cores_) core->reactor->wake_all();
  return count;
}

std::int32_t App::reset(const StreamFilter& streams) {
  const std::int32_t count = stores_->reset(streams);
  if (count > 0)
    for (const Core& core : cores_) core->reactor->wake_all();
  return count;
}

std::int32_t App::prioritize(const StreamFilter& streams, std::int32_t priority) {
  return stores_->prioritize(streams, priority);
}

partitions::CombinedProjection* App::read_model(const Projection& projection) {
  for (const auto& read_model : read_models_)
    if (read_model->target() == projection.target()) return read_model.get();
  return nullptr;
}

std::vector<std::int64_t> App::positions(const Projection& projection) {
  partitions::CombinedProjection* found = read_model(projection);
  if (found == nullptr)
    throw std::invalid_argument("App::positions: " + projection.target() + " is not a read model over all partitions");
  return found->positions();
}

RebuildProgress App::rebuild(const Projection& projection,
                             const std::function<void(const RebuildProgress&)>& on_progress) {
  if (partitions::CombinedProjection* rebuilt = read_model(projection)) {
    rebuilt->rewind();
    RebuildProgress progress;
    progress.target = rebuilt->target();
    for (std::int32_t p = 0; p < partitions(); ++p) {
      if (!rebuilt->reads(p)) continue;
      for (;;) {
        app_detail::AppCore& core = *cores_[static_cast<std::size_t>(p)];
        const partitions::Step step = partitions::step_and_report(*rebuilt, p, core.port, core.reactor->registry(),
                                                                  partitions(), partitions::Locking::kWait, false);
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
  if (partitions() == 1) return cores_.front()->reactor->rebuild(*projection.model(), on_progress);
  RebuildProgress total;
  total.target = projection.target();
  on_every_partition(partitions(), [&](std::int32_t p) {
    const std::int64_t before = total.applied;
    const RebuildProgress rebuilt = cores_[static_cast<std::size_t>(p)]->reactor->rebuild(
        *projection.model(), [&](const RebuildProgress& progress) {
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

void App::transact(const std::function<void(Sql&)>& work) { db::transact(only_core("transact()").store.pool(), work); }

}  // namespace act
