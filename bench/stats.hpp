#pragma once
// Latency samples and the record every benchmark program prints: one JSON
// object per line with scenario, p50_ms, p95_ms and ops_per_s, which
// bench/run.sh merges into one file. Percentiles as PERFORMANCE.md defines
// them: sorted[floor(n * p)].
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

class Samples {
 public:
  void add(double ms) { values_.push_back(ms); }
  void merge(const Samples& other) { values_.insert(values_.end(), other.values_.begin(), other.values_.end()); }
  std::size_t size() const noexcept { return values_.size(); }

  double percentile(double p) const {
    if (values_.empty()) return 0;
    std::vector<double> sorted = values_;
    std::sort(sorted.begin(), sorted.end());
    const auto at = static_cast<std::size_t>(static_cast<double>(sorted.size()) * p);
    return sorted[std::min(sorted.size() - 1, at)];
  }
  double mean() const {
    return values_.empty() ? 0 : std::accumulate(values_.begin(), values_.end(), 0.0) / static_cast<double>(values_.size());
  }
  double max() const { return values_.empty() ? 0 : *std::max_element(values_.begin(), values_.end()); }

  // p50, p95 and operations per second of one caller (1000 / mean), as PERFORMANCE.md reports them.
  nlohmann::json summary() const {
    return {{"samples", values_.size()},
            {"p50_ms", percentile(0.50)},
            {"p95_ms", percentile(0.95)},
            {"ops_per_s", mean() > 0 ? 1000.0 / mean() : 0.0}};
  }

 private:
  std::vector<double> values_;
};

// Prints one record line: {"scenario": name, ...fields}.
inline void print_record(const std::string& scenario, const nlohmann::json& fields) {
  nlohmann::json record = {{"scenario", scenario}};
  record.update(fields);
  std::printf("%s\n", record.dump().c_str());
  std::fflush(stdout);
}

}  // namespace bench
