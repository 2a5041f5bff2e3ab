#pragma once
// The read models over every partition (AppBuilder::with(projection,
// read_model)) as one partition's reactor runs them: its lane workers step
// them after each drain cycle, drain() steps each once, settle() until
// caught up. So lanes and read models over all partitions share one worker
// loop, one waker and one back-off.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "act/close.hpp"
#include "act/drain.hpp"
#include "partitions/combined_projection.hpp"
#include "react/app_port.hpp"
#include "react/registry.hpp"

namespace act::partitions {

// One step of a projection on a partition, its failures told to the
// partition's app's listeners. A database failure is one, named
// "projection X, partition p of P: ..."; so is any other exception when
// worker is set (else it is thrown: a misconfiguration, for drain's caller).
Step step_and_report(CombinedProjection& projection, std::int32_t partition, react::AppPort& app,
                     const react::Registry& registry, std::int32_t partitions, Locking locking, bool worker);

class ReadModels {
 public:
  // Those of projections that read `partition` of `partitions`; once, before any worker runs.
  void add(const std::vector<std::shared_ptr<CombinedProjection>>& projections, std::int32_t partition,
           std::int32_t partitions);
  bool empty() const noexcept { return slots_.empty(); }
  bool in_lane(std::string_view lane) const;
  // True when an event of this name may be work for one of them (a commit wakes the lane).
  bool reads(std::string_view event_name) const;

  // Once each (or until caught up, waiting for rows other workers hold),
  // those in `lane` or, with no lane, all. A worker skips one that failed
  // until its back-off ends: a poisoned partition is not retried at every commit.
  enum class Pace { kOnce, kUntilCaughtUp };
  DrainResult step(react::AppPort& app, const react::Registry& registry, const std::string* lane, Pace pace,
                   bool worker);

  // The streams of targets that one of them has not applied to their last
  // event yet, after letting each catch up once: a close would delete
  // events it never saw.
  std::vector<std::string> unapplied(react::AppPort& app, const react::Registry& registry,
                                     const std::vector<CloseTarget>& targets);

 private:
  struct Slot {
    std::shared_ptr<CombinedProjection> projection;
    std::chrono::steady_clock::time_point due{};
    std::chrono::milliseconds backoff{0};
  };

  std::int32_t partition_ = 0;
  std::int32_t partitions_ = 1;
  std::vector<Slot> slots_;
  std::mutex backoff_mutex_;  // a lane's worker and one let go by shutdown(grace) may overlap
};

}  // namespace act::partitions
