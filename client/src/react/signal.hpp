#pragma once
// A wake-up for one worker thread: notify() from anywhere; wait_until()
// returns early when notified since the last wait, or when stopped.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace act::react {

class Signal {
 public:
  void notify() {
    {
      const std::lock_guard lock(mutex_);
      ++generation_;
    }
    changed_.notify_all();
  }
  void stop() {
    {
      const std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    changed_.notify_all();
  }
  void restart() {
    const std::lock_guard lock(mutex_);
    stopped_ = false;
  }
  // True when woken (a notification since the last wait, or stop), false on timeout.
  bool wait_until(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    const bool woken = changed_.wait_until(lock, deadline, [&] { return stopped_ || generation_ != seen_; });
    seen_ = generation_;
    return woken;
  }
  bool stopped() const {
    const std::lock_guard lock(mutex_);
    return stopped_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t generation_ = 0;
  std::uint64_t seen_ = 0;
  bool stopped_ = false;
};

}  // namespace act::react
