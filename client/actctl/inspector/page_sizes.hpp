#pragma once
// How much one request of a page reads: the default and the most a
// parameter may ask for. Every read is bounded by one of these.
#include <cstdint>

namespace actctl::inspector {

inline constexpr std::int32_t kEventsPerPage = 50;
inline constexpr std::int32_t kMostEventsPerPage = 500;
inline constexpr std::int32_t kRowsPerPage = 100;
inline constexpr std::int32_t kMostRowsPerPage = 1000;
// Events a log request with a filter no index serves reads at most (its
// `window` parameter, up to kMostScanWindow).
inline constexpr std::int32_t kScanWindow = 100'000;
inline constexpr std::int32_t kMostScanWindow = 1'000'000;

}  // namespace actctl::inspector
