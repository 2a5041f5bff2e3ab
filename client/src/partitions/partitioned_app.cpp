#include "act/partitioned_app.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>

#include "act/errors.hpp"
#include "app/app_core.hpp"

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
    : map_(std::move(map)), apps_(build_apps(map_, build)) {
  auto cores = std::make_shared<app_detail::PartitionRoute::Cores>();
  for (const App& built : apps_) cores->push_back(built.core_);
  // Before any worker runs: nothing reads the route concurrently with this.
  for (std::int32_t p = 0; p < partitions(); ++p) apps_[static_cast<std::size_t>(p)].core_->route.emplace(p, cores);
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
  return on_stream(target.stream, [&](App& app) { return app.do_action(action, target, payload, options); });
}

std::int64_t PartitionedApp::forget(std::string_view stream) {
  return on_stream(stream, [&](App& app) { return app.forget(stream); });
}

CorrelateResult PartitionedApp::correlate() {
  CorrelateResult total;
  std::exception_ptr first_failure;
  for (std::int32_t p = 0; p < partitions(); ++p) {
    try {
      const CorrelateResult result = on_partition(p, [](App& app) { return app.correlate(); });
      total.scanned = total.scanned || result.scanned;
      total.events += result.events;
      total.subscribed += result.subscribed;
      total.marked += result.marked;
    } catch (const PartitionError&) {
      if (!first_failure) first_failure = std::current_exception();
    }
  }
  if (first_failure) std::rethrow_exception(first_failure);
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
  return total;
}

SettleResult PartitionedApp::settle(const SettleOptions& options) {
  std::this_thread::sleep_for(options.debounce);  // once, not once per partition
  SettleOptions each = options;
  each.debounce = std::chrono::milliseconds(0);
  each.throw_on_failure = false;
  SettleResult total;
  std::vector<bool> unreachable(static_cast<std::size_t>(partitions()), false);
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
  std::exception_ptr first_failure;
  for (std::int32_t p = 0; p < partitions(); ++p) {
    try {
      on_partition(p, [&](App& app) { app.start(options); });
    } catch (const PartitionError&) {
      // The others start all the same; start() again starts this one (started ones are left as they are).
      if (!first_failure) first_failure = std::current_exception();
    }
  }
  if (first_failure) std::rethrow_exception(first_failure);
}

void PartitionedApp::shutdown() {
  for (App& app : apps_) app.shutdown();
}

void PartitionedApp::shutdown(std::chrono::milliseconds grace) {
  const auto deadline = std::chrono::steady_clock::now() + grace;
  for (App& app : apps_) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    app.shutdown(std::max(left, std::chrono::milliseconds(0)));
  }
}

}  // namespace act
