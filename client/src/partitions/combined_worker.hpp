#pragma once
// The background thread that keeps a PartitionedApp's projections over all
// partitions up to date: it steps each (projection, partition) in turn,
// again at once while one makes progress, and backs off on a partition
// with nothing new (or one that fails) so idle partitions cost little.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "partitions/combined_projection.hpp"

namespace act::app_detail {
struct AppCore;
}

namespace act::partitions {

// Partition p's log as its app reads it.
PartitionSource source_of(app_detail::AppCore& core);

class CombinedWorker {
 public:
  // cores[p] is partition p's app core: its pool and registry are read,
  // its observers hear the failures met on that partition.
  CombinedWorker(std::vector<CombinedProjection*> projections, std::vector<std::shared_ptr<app_detail::AppCore>> cores);
  ~CombinedWorker();  // stops and joins
  CombinedWorker(const CombinedWorker&) = delete;
  CombinedWorker& operator=(const CombinedWorker&) = delete;

  // A commit on the partition: look at it now rather than after a back-off.
  void wake(std::int32_t partition);
  void stop();

 private:
  using Clock = std::chrono::steady_clock;
  struct Slot {
    CombinedProjection* projection = nullptr;
    std::int32_t partition = 0;
    Clock::time_point due{};
    std::chrono::milliseconds backoff{0};
  };

  void run(std::stop_token stop);
  // Steps one slot and sets when it is due next.
  void step(Slot& slot);

  std::vector<std::shared_ptr<app_detail::AppCore>> cores_;
  std::vector<Slot> slots_;
  std::mutex mutex_;
  std::condition_variable_any woken_;
  std::vector<bool> wake_;  // by partition, under mutex_
  std::jthread thread_;     // last: it uses everything above
};

}  // namespace act::partitions
