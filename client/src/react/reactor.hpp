#pragma once
// The reaction side of an app: the registry, the correlator, one drain
// controller per lane, settle, and the background workers.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "act/drain.hpp"
#include "act/projection.hpp"
#include "react/correlator.hpp"
#include "react/lane_controller.hpp"
#include "react/registry.hpp"
#include "react/row_coverage.hpp"
#include "react/signal.hpp"

namespace act::app_detail {
struct AppCore;
}

namespace act::react {

class Reactor {
 public:
  Reactor(app_detail::AppCore& core, std::unique_ptr<Registry> registry,
          std::function<void(const ReactionFailure&)> on_failure);
  ~Reactor();
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  // After an action of this app committed: wake the workers for reactive events.
  void committed(const std::vector<Committed>& events);
  // The inline projections an action's commit to stream of events named
  // event_names is for; their read models are set up before the first.
  std::vector<InlineCandidate> inline_candidates(std::string_view stream, const std::vector<std::string>& event_names);

  CorrelateResult correlate();
  DrainResult drain();
  SettleResult settle(const SettleOptions& options);
  void start(const WorkerOptions& options);
  void shutdown();
  RebuildProgress rebuild(const detail::ProjectionModel& projection,
                          const std::function<void(const RebuildProgress&)>& on_progress);
  bool stopping() const noexcept { return stopping_.load(std::memory_order_relaxed); }
  // Wakes every worker (after an unblock or a reset made streams claimable).
  void wake_all();

 private:
  struct LaneSlot {
    explicit LaneSlot(Lane lane) : controller(std::move(lane)) {}
    LaneController controller;
    Signal wake;
  };

  // Registers fixed targets and sets projections up; once, retried after a failure.
  void initialize();
  void check_existing(const SubscriptionSpec& spec, const std::vector<Subscription>& stored) const;
  LaneSlot& slot_for(const std::string& lane);
  // A worker's failures go to the on_failure listener or, without one, to stderr.
  void worker_failed(const ReactionFailure& failure) const noexcept;
  void log_unheard(const DrainResult& result) const noexcept;
  DrainResult drain_lanes(AckMode mode);
  DrainResult flush_lanes();
  void flush_quietly(LaneSlot& slot) noexcept;
  void lane_loop(LaneSlot& slot);
  void correlate_loop(const WorkerOptions& options);

  app_detail::AppCore& core_;
  std::unique_ptr<Registry> registry_;
  std::unique_ptr<Correlator> correlator_;  // only with dynamic reactions
  std::vector<std::unique_ptr<LaneSlot>> lanes_;
  std::atomic<bool> stopping_{false};
  RowCoverage coverage_;
  CycleDeps deps_;

  std::mutex initialize_mutex_;
  bool initialized_ = false;

  std::mutex workers_mutex_;  // start / shutdown
  std::vector<std::thread> workers_;
  Signal correlate_wake_;
  Signal stop_;
};

}  // namespace act::react
