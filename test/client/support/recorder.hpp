#pragma once
// What reaction handlers saw, recorded from any thread, and waiting for it.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "act/act.hpp"

namespace act::test {

class Recorder {
 public:
  void record(const std::string& target, const Committed& event) {
    {
      const std::lock_guard lock(mutex_);
      by_target_[target].push_back(event.id);
      ++total_;
    }
    changed_.notify_all();
  }
  std::vector<std::int64_t> ids(const std::string& target) const {
    const std::lock_guard lock(mutex_);
    const auto found = by_target_.find(target);
    return found == by_target_.end() ? std::vector<std::int64_t>{} : found->second;
  }
  std::map<std::string, std::vector<std::int64_t>> all() const {
    const std::lock_guard lock(mutex_);
    return by_target_;
  }
  std::size_t total() const {
    const std::lock_guard lock(mutex_);
    return total_;
  }
  // True once at least `count` events were recorded; false after the timeout.
  bool wait_for(std::size_t count, std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return total_ >= count; });
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::vector<std::int64_t>> by_target_;
  std::size_t total_ = 0;
};

// Polls condition until it holds (true) or the timeout passes (false).
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// The ids of events committed by do_action results, in order.
inline std::vector<std::int64_t> ids_of(const std::vector<ActionResult>& results) {
  std::vector<std::int64_t> ids;
  for (const ActionResult& result : results)
    for (const Committed& event : result.events) ids.push_back(event.id);
  return ids;
}

}  // namespace act::test
