#pragma once
#include <cstdint>

#include "pg.hpp"

namespace act::pg {

// Postgres counts microseconds from 2000-01-01; the hash encoding from 1970-01-01.
inline std::int64_t UnixMicros(TimestampTz timestamp) {
  constexpr std::int64_t kEpochShift =
      static_cast<std::int64_t>(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;
  return timestamp + kEpochShift;
}

// `created` as the hash encoding counts it (docs/hash-chain.md); an infinite
// one cannot be encoded (22008).
std::int64_t EncodedCreated(TimestampTz created);

}  // namespace act::pg

namespace act::pg {

inline TimestampTz FromUnixMillis(std::int64_t millis) {
  constexpr std::int64_t kEpochShift =
      static_cast<std::int64_t>(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;
  return millis * 1000 - kEpochShift;
}

// Parses a timestamptz literal (errors: 22007/22008).
TimestampTz ParseTimestamp(const char* text);

}  // namespace act::pg
