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

}  // namespace act::pg
