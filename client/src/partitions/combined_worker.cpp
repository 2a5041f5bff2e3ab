#include "partitions/combined_worker.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>

#include "act/errors.hpp"
#include "app/app_core.hpp"

namespace act::partitions {
namespace {

using Clock = std::chrono::steady_clock;

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

struct Slot {
  std::shared_ptr<CombinedProjection> projection;
  std::int32_t partition = 0;
  Clock::time_point due{};
  std::chrono::milliseconds backoff{0};
  bool failing = false;
};

}  // namespace

struct CombinedWorker::State {
  std::vector<std::shared_ptr<app_detail::AppCore>> cores;
  std::vector<Slot> slots;
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<bool> wake;  // by partition, under mutex
  bool stopping = false;   // under mutex
  bool finished = false;   // under mutex
};

PartitionSource source_of(app_detail::AppCore& core) { return {&core.store.pool(), &core.reactor->registry()}; }

Step step_and_report(CombinedProjection& projection, std::int32_t partition, app_detail::AppCore& core,
                     std::int32_t partitions, Locking locking, bool worker) {
  Step step;
  std::string error;
  try {
    step = projection.step(partition, source_of(core), locking);
  } catch (const StoreError& failed) {
    error = failed.what();
  } catch (const std::exception& failed) {
    if (!worker) throw;  // a misconfiguration: drain and settle throw it to their caller
    error = failed.what();
  } catch (...) {
    if (!worker) throw;
    error = "a handler or setup threw a non-exception";
  }
  if (!error.empty()) {
    ReactionFailure failure;
    failure.target = projection.target();
    failure.reaction = projection.target();
    failure.error = "projection " + projection.target() + ", partition " + std::to_string(partition) + " of " +
                    std::to_string(partitions) + ": " + error;
    step.drained.add_failure(std::move(failure));
  }
  for (const ReactionFailure& failure : step.drained.failures) {
    if (worker) {
      core.observers.worker_failed("combined projection", failure);
    } else {
      core.observers.heard_failure("combined projection", failure);
    }
  }
  return step;
}

CombinedWorker::CombinedWorker(std::vector<std::shared_ptr<CombinedProjection>> projections,
                               std::vector<std::shared_ptr<app_detail::AppCore>> cores)
    : state_(std::make_shared<State>()) {
  state_->cores = std::move(cores);
  state_->wake.assign(state_->cores.size(), false);
  for (const auto& projection : projections)
    for (std::int32_t p = 0; p < static_cast<std::int32_t>(state_->cores.size()); ++p)
      if (projection->reads(p)) state_->slots.push_back(Slot{projection, p});
  thread_ = std::thread([state = state_] { run(state); });
}

CombinedWorker::~CombinedWorker() { stop(); }

void CombinedWorker::stop() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->changed.notify_all();
  thread_.join();
}

void CombinedWorker::stop(std::chrono::milliseconds grace) {
  if (!thread_.joinable()) return;
  std::unique_lock lock(state_->mutex);
  state_->stopping = true;
  state_->changed.notify_all();
  if (state_->changed.wait_for(lock, grace, [&] { return state_->finished; })) {
    lock.unlock();
    thread_.join();
  } else {
    thread_.detach();  // it holds the state, the projections and the cores
  }
}

void CombinedWorker::wake(std::int32_t partition) {
  {
    const std::lock_guard lock(state_->mutex);
    if (partition >= 0 && static_cast<std::size_t>(partition) < state_->wake.size())
      state_->wake[static_cast<std::size_t>(partition)] = true;
  }
  state_->changed.notify_all();
}

void CombinedWorker::run(const std::shared_ptr<State>& state) {
  const auto partitions = static_cast<std::int32_t>(state->cores.size());
  const auto stopping = [&] {
    const std::lock_guard lock(state->mutex);
    return state->stopping;
  };
  while (!stopping()) {
    const Clock::time_point now = Clock::now();
    for (Slot& slot : state->slots) {
      if (slot.due > now) continue;
      if (stopping()) break;
      app_detail::AppCore& core = *state->cores[static_cast<std::size_t>(slot.partition)];
      const Step step = step_and_report(*slot.projection, slot.partition, core, partitions, Locking::kSkipLocked, true);
      slot.failing = step.drained.failed > 0;
      if (slot.failing) {
        slot.backoff = next_backoff(slot.backoff, kFailedFirst, kFailedMax);
      } else if (step.drained.advanced > 0) {
        slot.backoff = std::chrono::milliseconds(0);
      } else {
        slot.backoff = next_backoff(slot.backoff, kIdleFirst, kIdleMax);
      }
      slot.due = Clock::now() + slot.backoff;
    }
    Clock::time_point next = Clock::now() + kIdleMax;
    for (const Slot& slot : state->slots) next = std::min(next, slot.due);
    std::unique_lock lock(state->mutex);
    state->changed.wait_until(lock, next, [&] {
      return state->stopping || std::ranges::any_of(state->wake, [](bool wake) { return wake; });
    });
    for (Slot& slot : state->slots) {
      // A commit ends an idle back-off, not a failing one: a poisoned partition is not retried at every commit.
      if (state->wake[static_cast<std::size_t>(slot.partition)] && !slot.failing) {
        slot.due = Clock::now();
        slot.backoff = std::chrono::milliseconds(0);
      }
    }
    std::fill(state->wake.begin(), state->wake.end(), false);
  }
  const std::lock_guard lock(state->mutex);
  state->finished = true;
  state->changed.notify_all();
}

}  // namespace act::partitions
