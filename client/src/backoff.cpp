#include "backoff.hpp"

#include <algorithm>
#include <random>

namespace act::app_detail {

std::chrono::milliseconds backoff_delay(const Backoff& backoff, int retry) {
  if (backoff.base.count() <= 0) return std::chrono::milliseconds(0);
  const int doublings = std::clamp(retry, 0, 30);
  const auto grown = backoff.base.count() * (std::int64_t{1} << doublings);
  double delay =
      static_cast<double>(std::min<std::int64_t>(grown, std::max(backoff.max.count(), backoff.base.count())));
  if (backoff.jitter) {
    thread_local std::mt19937 generator{std::random_device{}()};
    delay *= std::uniform_real_distribution<double>(0.5, 1.5)(generator);
  }
  return std::chrono::milliseconds(static_cast<std::int64_t>(delay));
}

}  // namespace act::app_detail
