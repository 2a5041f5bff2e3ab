#pragma once
// The claimed targets found to be other apps' (Registry::may_own), so the
// warning that one was left is said once per target and process.
#include <cstddef>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace act::react {

class ForeignTargets {
 public:
  // True the first time a target is met (again after the memory starts over).
  bool first_time(std::string_view target) {
    const std::lock_guard lock(mutex_);
    if (seen_.size() >= kRemembered) seen_.clear();
    return seen_.emplace(target).second;
  }

 private:
  static constexpr std::size_t kRemembered = 10'000;

  std::mutex mutex_;
  std::set<std::string, std::less<>> seen_;
};

}  // namespace act::react
