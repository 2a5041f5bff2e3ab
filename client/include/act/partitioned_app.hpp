#pragma once
// One App per partition of a partitioned deployment (docs/scale-out.md),
// each on its partition's database; calls for a stream go straight to the
// app of its partition, with no router in between.
//
//   act::PartitionMap map({"host=node-a dbname=act_p0", "host=node-b dbname=act_p1",
//                          "host=node-a dbname=act_p2", "host=node-b dbname=act_p3"});
//   act::PartitionedApp app(std::move(map), [&](std::shared_ptr<act::ConnectionPool> pool) {
//     return act::app(std::move(pool)).with(tickets).on<Opened>("Opened").handle(...);
//   });
//   app.do_action("open", {"ticket-1", actor}, Open{...});   // on partition 3's database
//   app.start();                                               // every partition's workers
#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>
#include <functional>
#include <string>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/app.hpp"
#include "act/partitions.hpp"

namespace act {

namespace partitions {
class CombinedProjection;
struct CombinedRunner;
}  // namespace partitions

namespace detail {
// Rethrows the exception in flight; a StoreError (not yet a PartitionError)
// becomes a PartitionError naming the partition.
[[noreturn]] void rethrow_in_partition(std::int32_t partition, std::int32_t partitions);
}  // namespace detail

class PartitionedApp {
 public:
  // Builds the app of each partition on its pool; called once per
  // partition, in partition order, and must build on the pool it is given.
  using Factory = std::function<AppBuilder(std::shared_ptr<ConnectionPool> pool)>;
  using PartitionFactory = std::function<AppBuilder(std::shared_ptr<ConnectionPool> pool, std::int32_t partition)>;

  PartitionedApp(PartitionMap map, const Factory& build);
  PartitionedApp(PartitionMap map, const PartitionFactory& build);
  PartitionedApp(PartitionedApp&&) noexcept;
  PartitionedApp& operator=(PartitionedApp&&) noexcept;
  ~PartitionedApp();  // shutdown() first: no worker of one partition outlives the others' apps

  const PartitionMap& map() const noexcept { return map_; }
  std::int32_t partitions() const noexcept { return map_.partitions(); }
  std::int32_t partition_of(std::string_view stream) const { return map_.partition_of(stream); }
  // A partition's own app, for what is not routed here (queries, one
  // partition's recovery): std::out_of_range outside 0 .. partitions() - 1.
  App& app(std::int32_t partition);
  App& app_for(std::string_view stream) { return app(partition_of(stream)); }

  // A projection over every partition into one read model, kept in
  // read_model's database (docs/scale-out.md, "A read model over all
  // partitions"). Its position is a vector, the last id applied from each
  // partition, stored there in act_partition_positions by the transaction
  // of the handlers' writes: exactly once, whichever process applies it.
  // drain, settle and start run it with the partitions' reactions. Not for
  // the partitions' own apps: a projection given to them is one per
  // partition, each in its partition's database. Throws
  // std::invalid_argument for an inline projection or a target added
  // twice, std::logic_error once the workers have started.
  void add(const Projection& projection, std::shared_ptr<ConnectionPool> read_model);
  // Its positions, index = partition (0: nothing applied yet).
  std::vector<std::int64_t> positions(const Projection& projection);
  // A projection added here: empties its read model and sets its positions
  // to 0 in one transaction, then applies every partition's events back to
  // their horizons (RebuildProgress::at and head are -1, the position being
  // a vector; blocked and error tell of a handler that failed on the way).
  // Any other: App::rebuild in each partition's app, progress summed.
  RebuildProgress rebuild(const Projection& projection,
                          const std::function<void(const RebuildProgress&)>& on_progress = {});

  // Recovery and closing, over every partition. A partition that cannot be
  // reached does not stop the others: once they have run, its
  // PartitionError is thrown (the first, if several), and the call may be
  // repeated when it is back. Each stream to close goes to its partition's
  // App::close, unless a read model over all partitions has not applied it
  // to its last event (after catching up): then it is skipped. A selector
  // goes to every partition, counts summed.
  CloseResult close(const std::vector<CloseTarget>& targets);
  // Merged in stream order: the first `limit` after `after` of all partitions.
  std::vector<Subscription> blocked_streams(const std::optional<std::string>& after = {}, std::int32_t limit = 100);
  std::int32_t unblock(const StreamFilter& streams);
  std::int32_t reset(const StreamFilter& streams);
  std::int32_t prioritize(const StreamFilter& streams, std::int32_t priority);

  // App::do_action and App::load on the stream's partition. Infrastructure
  // failures there (an unreachable database) are PartitionErrors naming it.
  ActionResult do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                         const DoOptions& options = {});

  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream, const LoadOptions& options = {}) {
    return on_stream(stream, [&](App& app) { return app.load(state, stream, options); });
  }
  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream, const AsOf& as_of) {
    return on_stream(stream, [&](App& app) { return app.load(state, stream, as_of); });
  }
  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream, const Actor& reader) {
    return on_stream(stream, [&](App& app) { return app.load(state, stream, reader); });
  }
  std::int64_t forget(std::string_view stream);

  // Every partition's app in turn, counts summed. A partition whose database
  // cannot be reached does not stop the others: drain and settle report it
  // as a failure with no target (its error names the partition), correlate
  // and start throw its PartitionError once the others have run.
  // CorrelateResult::checkpoint is -1: each partition has its own.
  CorrelateResult correlate();
  DrainResult drain();
  // Settles partition after partition, and again while a round made
  // progress: a reaction of one partition may have committed to another
  // that had settled already. Each app's on_settled hears its own part.
  SettleResult settle(const SettleOptions& options = {});
  SettleResult settle_or_throw(SettleOptions options = {});
  // Each partition's workers: its lanes claim and its waker waits on its own database.
  void start(const WorkerOptions& options = {});
  void shutdown();
  // The grace is for all partitions together, not for each.
  void shutdown(std::chrono::milliseconds grace);

 private:
  template <class F>
  auto on_partition(std::int32_t partition, F&& work) -> decltype(work(std::declval<App&>())) {
    App& target = app(partition);
    try {
      return work(target);
    } catch (...) {
      detail::rethrow_in_partition(partition, partitions());
    }
  }
  // work(app, partition) on every partition, in order; the first
  // PartitionError is thrown once all have run.
  template <class F>
  void on_every_partition(F&& work) {
    std::exception_ptr first_failure;
    for (std::int32_t p = 0; p < partitions(); ++p) {
      try {
        on_partition(p, [&](App& app) { work(app, p); });
      } catch (const PartitionError&) {
        if (!first_failure) first_failure = std::current_exception();
      }
    }
    if (first_failure) std::rethrow_exception(first_failure);
  }
  template <class F>
  auto on_stream(std::string_view stream, F&& work) -> decltype(work(std::declval<App&>())) {
    return on_partition(partition_of(stream), std::forward<F>(work));
  }

  partitions::CombinedProjection& combined(const Projection& projection);
  RebuildProgress rebuild_in_each(const Projection& projection,
                                  const std::function<void(const RebuildProgress&)>& on_progress);
  // One page of each partition for each projection over all partitions (or
  // until it is caught up). unreachable, by projection and partition: the
  // steps that failed on a database, skipped from then on (settle reports each once).
  DrainResult step_combined(bool until_caught_up, std::vector<bool>* unreachable);
  // The streams of targets (all of one partition) a read model over all
  // partitions has not applied to their last event yet, after letting it
  // catch up once.
  std::vector<std::string> unapplied(std::int32_t partition, const std::vector<CloseTarget>& targets);
  // Stops the worker of the read models over all partitions (nothing when not started).
  void stop_combined(std::optional<std::chrono::milliseconds> grace);

  PartitionMap map_;
  std::vector<App> apps_;  // index = partition
  // Shared with the worker thread, which may outlive a shutdown(grace).
  std::vector<std::shared_ptr<partitions::CombinedProjection>> combined_;
  // Its worker while started, under a mutex do_action's wake-ups take too.
  std::unique_ptr<partitions::CombinedRunner> runner_;
};

}  // namespace act
