#pragma once
// The background thread that keeps a PartitionedApp's projections over all
// partitions up to date: it steps each (projection, partition) in turn,
// again at once while one makes progress, and backs off on a partition
// with nothing new (or one that fails) so idle partitions cost little.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "partitions/combined_projection.hpp"

namespace act::app_detail {
struct AppCore;
}

namespace act::partitions {

// Partition p's log as its app reads it.
PartitionSource source_of(app_detail::AppCore& core);

// One step of a projection on a partition, its failures told to the
// partition's app (on_failure, or its log when worker is set). A database
// failure is one, named "projection X, partition p of P: ...".
Step step_and_report(CombinedProjection& projection, std::int32_t partition, app_detail::AppCore& core,
                     std::int32_t partitions, Locking locking, bool worker);

class CombinedWorker;

// A PartitionedApp's worker while started; do_action's wake-ups take the mutex too.
struct CombinedRunner {
  std::mutex mutex;
  std::unique_ptr<CombinedWorker> worker;
};

class CombinedWorker {
 public:
  // cores[p] is partition p's app core: its pool and registry are read,
  // its observers hear the failures met on that partition.
  CombinedWorker(std::vector<std::shared_ptr<CombinedProjection>> projections,
                 std::vector<std::shared_ptr<app_detail::AppCore>> cores);
  ~CombinedWorker();  // stop()
  CombinedWorker(const CombinedWorker&) = delete;
  CombinedWorker& operator=(const CombinedWorker&) = delete;

  // A commit on the partition: look at it now rather than after an idle back-off.
  void wake(std::int32_t partition);
  // Stops after the step in hand and joins.
  void stop();
  // The same, waiting at most grace; a thread still in a handler then is
  // let go (it holds what it uses) and stops once that step ends.
  void stop(std::chrono::milliseconds grace);

 private:
  struct State;
  static void run(const std::shared_ptr<State>& state);

  std::shared_ptr<State> state_;
  std::thread thread_;
};

}  // namespace act::partitions
