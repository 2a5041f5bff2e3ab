#pragma once
// The reaction side of an app: the registry, the correlator, one drain
// controller per lane, settle, and the background workers.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "act/drain.hpp"
#include "act/projection.hpp"
#include "act/projection_version.hpp"
#include "partitions/read_models.hpp"
#include "react/app_port.hpp"
#include "react/correlator.hpp"
#include "react/foreign_targets.hpp"
#include "react/lane_controller.hpp"
#include "react/registry.hpp"
#include "react/row_coverage.hpp"
#include "react/signal.hpp"
#include "react/worker_threads.hpp"

namespace act::react {

class Reactor {
 public:
  Reactor(AppPort& app, std::unique_ptr<Registry> registry);
  ~Reactor();
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  // The read models over every partition this reactor's workers, drain and
  // settle run besides its lanes (partition of partitions); once, before
  // start. std::invalid_argument when one's lane is not declared.
  void serve(const std::vector<std::shared_ptr<partitions::CombinedProjection>>& read_models, std::int32_t partition,
             std::int32_t partitions);
  // The streams of targets a read model over every partition has not applied to their last event.
  std::vector<std::string> unapplied(const std::vector<CloseTarget>& targets);

  // After an action of this app committed: wake the workers for reactive events.
  void committed(const std::vector<Committed>& events);
  // The inline projections an action's commit to stream of events named
  // event_names is for; their read models are set up before the first.
  std::vector<InlineCandidate> inline_candidates(std::string_view stream, const std::vector<std::string>& event_names);

  const Registry& registry() const noexcept { return *registry_; }
  CorrelateResult correlate();
  // True when some reaction's target depends on the event (found by correlate).
  bool has_dynamic() const noexcept { return registry_->has_dynamic(); }
  bool has_inline() const noexcept { return registry_->has_inline(); }
  DrainResult drain();
  SettleResult settle(const SettleOptions& options);
  void start(const WorkerOptions& options);
  // Stops the workers; with a grace, lets go those still running after it
  // (a handler stuck in a call): they run on by themselves, holding a share of the app.
  void shutdown(std::optional<std::chrono::milliseconds> grace = std::nullopt);
  RebuildProgress rebuild(const detail::ProjectionModel& projection,
                          const std::function<void(const RebuildProgress&)>& on_progress);
  // Wakes every worker (after an unblock or a reset made streams claimable),
  // interrupting a lane's claim that waits in the server for a commit.
  void wake_all();

  // Projection versions on this partition (reactor_versions.cpp,
  // react/projection_versions.hpp). std::invalid_argument for a version
  // this app does not drain.
  ProjectionLag lag(const detail::ProjectionModel& version);
  // Drains the version up to the live position, then tries the switch; again
  // while commits keep it further behind than options.max_lag.
  SwitchResult switch_to(const detail::ProjectionModel& version, const SwitchOptions& options);
  void drop_version(const std::string& name, std::int32_t version);
  std::optional<std::int32_t> current_version(const std::string& name);

 private:
  struct LaneSlot {
    explicit LaneSlot(Lane lane) : controller(std::move(lane)) {}
    LaneController controller;
    Signal wake;
    // Its worker parks in a claim that waits in the server, which sees every
    // commit: a commit's notice would only cost it an extra cycle.
    std::atomic<bool> parks_in_server{false};
  };

  // Registers fixed targets and sets projections up; once, retried after a failure.
  void initialize();
  // Widens a fixed target's row that lacks event names this app delivers to
  // it (moves of the target come first: target_moves.hpp).
  void reconcile_existing(const SubscriptionSpec& spec, const std::vector<Subscription>& stored);
  LaneSlot& slot_for(const std::string& lane);
  const detail::ProjectionModel& drained(const detail::ProjectionModel& version) const;
  // Drains the projection's lane on this thread until its watermark reaches `until` or it is blocked.
  void drain_until(const detail::ProjectionModel& projection, std::int64_t until);
  // Nothing to run: no reaction, projection or read model over all partitions.
  bool idle() const noexcept { return registry_->empty() && read_models_.empty(); }
  // A worker thread for the lane: this app's rows or a read model over all partitions there.
  bool serves_lane(const std::string& lane) const { return registry_->claims_lane(lane) || read_models_.in_lane(lane); }
  DrainResult drain_lanes(AckMode mode);
  DrainResult flush_lanes();
  void flush_quietly(LaneSlot& slot) noexcept;
  // What one start() shares with its threads: a thread let go by
  // shutdown(grace) keeps its own share, stopped for good.
  struct WorkerRun {
    std::atomic<bool> stopping{false};
    Signal stop;  // the waker's
  };
  void lane_loop(LaneSlot& slot, const WorkerOptions& options, const WorkerRun& run);
  // Whether the lane parks in a claim that waits in the server: a commit
  // wakes that claim itself, but not a read model's step nor a correlator's marks.
  bool parks_in_server(LaneSlot& slot);
  // A commit's wake-up: a lane waiting in the server sees the commit there.
  void wake_on_commit();
  void correlate_loop(const WorkerOptions& options, const WorkerRun& run);
  // A worker thread owning a share of the app; a throw from loop is logged.
  void spawn(std::string name, std::function<void()> loop);

  AppPort& app_;
  std::unique_ptr<Registry> registry_;
  std::unique_ptr<Correlator> correlator_;  // only with dynamic reactions
  partitions::ReadModels read_models_;
  std::vector<std::unique_ptr<LaneSlot>> lanes_;
  std::atomic<bool> stopping_{false};
  RowCoverage coverage_;
  ForeignTargets foreign_;
  CycleDeps deps_;

  std::mutex initialize_mutex_;
  bool initialized_ = false;

  std::mutex workers_mutex_;  // start / shutdown
  WorkerThreads workers_;
  std::shared_ptr<WorkerRun> run_;  // while started
  Signal correlate_wake_;
};

}  // namespace act::react
