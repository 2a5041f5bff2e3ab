#include "partitions/combined_worker.hpp"

#include <algorithm>
#include <exception>

#include "app/app_core.hpp"

namespace act::partitions {
namespace {

// Idle: 5 ms doubling to 200 ms, so a quiet partition costs a query or five
// a second and a busy one is seen at once. Failing: 100 ms doubling to 30 s.
constexpr std::chrono::milliseconds kIdleFirst{5};
constexpr std::chrono::milliseconds kIdleMax{200};
constexpr std::chrono::milliseconds kFailedFirst{100};
constexpr std::chrono::milliseconds kFailedMax{30'000};

std::chrono::milliseconds next_backoff(std::chrono::milliseconds now, std::chrono::milliseconds first,
                                       std::chrono::milliseconds most) {
  return std::clamp(now * 2, first, most);
}

}  // namespace

PartitionSource source_of(app_detail::AppCore& core) { return {&core.store.pool(), &core.reactor->registry()}; }

CombinedWorker::CombinedWorker(std::vector<CombinedProjection*> projections,
                               std::vector<std::shared_ptr<app_detail::AppCore>> cores)
    : cores_(std::move(cores)), wake_(cores_.size(), false) {
  for (CombinedProjection* projection : projections)
    for (std::int32_t p = 0; p < static_cast<std::int32_t>(cores_.size()); ++p) slots_.push_back(Slot{projection, p});
  thread_ = std::jthread([this](std::stop_token stop) { run(std::move(stop)); });
}

CombinedWorker::~CombinedWorker() { stop(); }

void CombinedWorker::stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  woken_.notify_all();
  thread_.join();
}

void CombinedWorker::wake(std::int32_t partition) {
  {
    const std::lock_guard lock(mutex_);
    if (partition >= 0 && static_cast<std::size_t>(partition) < wake_.size())
      wake_[static_cast<std::size_t>(partition)] = true;
  }
  woken_.notify_all();
}

void CombinedWorker::step(Slot& slot) {
  app_detail::AppCore& core = *cores_[static_cast<std::size_t>(slot.partition)];
  const PartitionSource source = source_of(core);
  DrainResult result;
  try {
    result = slot.projection->step(slot.partition, source);
  } catch (const std::exception& error) {
    ReactionFailure failure;
    failure.target = slot.projection->target();
    failure.reaction = slot.projection->target();
    failure.error = "partition " + std::to_string(slot.partition) + " of " + std::to_string(cores_.size()) + ": " +
                    error.what();
    result.add_failure(std::move(failure));
  }
  for (const ReactionFailure& failure : result.failures) core.observers.worker_failed("combined projection", failure);
  if (result.failed > 0) {
    slot.backoff = next_backoff(slot.backoff, kFailedFirst, kFailedMax);
  } else if (result.advanced > 0) {
    slot.backoff = std::chrono::milliseconds(0);
  } else {
    slot.backoff = next_backoff(slot.backoff, kIdleFirst, kIdleMax);
  }
  slot.due = Clock::now() + slot.backoff;
}

void CombinedWorker::run(std::stop_token stop) {
  while (!stop.stop_requested()) {
    const Clock::time_point now = Clock::now();
    for (Slot& slot : slots_) {
      if (stop.stop_requested()) return;
      if (slot.due <= now) step(slot);
    }
    Clock::time_point next = now + kIdleMax;
    for (const Slot& slot : slots_) next = std::min(next, slot.due);
    std::unique_lock lock(mutex_);
    const auto woken = [&] { return std::ranges::any_of(wake_, [](bool wake) { return wake; }); };
    woken_.wait_until(lock, stop, next, woken);
    for (Slot& slot : slots_) {
      if (wake_[static_cast<std::size_t>(slot.partition)]) {
        slot.due = Clock::now();
        slot.backoff = std::chrono::milliseconds(0);
      }
    }
    std::fill(wake_.begin(), wake_.end(), false);
  }
}

}  // namespace act::partitions
