#pragma once
#include <atomic>
#include <cstdint>

#include "act/app.hpp"

namespace act::app_detail {

// AppStats as it is being counted, from many threads.
struct Counters {
  std::atomic<std::uint64_t> conflicts{0};
  std::atomic<std::uint64_t> retries{0};
  std::atomic<std::uint64_t> cache_rechecks{0};
  std::atomic<std::uint64_t> snapshots{0};
  std::atomic<std::uint64_t> snapshot_failures{0};
  std::atomic<std::uint64_t> cache_hits{0};
  std::atomic<std::uint64_t> cache_misses{0};

  static void bump(std::atomic<std::uint64_t>& counter) { counter.fetch_add(1, std::memory_order_relaxed); }

  AppStats read() const {
    const auto get = [](const std::atomic<std::uint64_t>& counter) { return counter.load(std::memory_order_relaxed); };
    return AppStats{get(conflicts),         get(retries),    get(cache_rechecks), get(snapshots),
                    get(snapshot_failures), get(cache_hits), get(cache_misses)};
  }
};

}  // namespace act::app_detail
