#include "timestamps.hpp"

#include "act/core/errors.hpp"
#include "error_bridge.hpp"

namespace act::pg {

std::int64_t EncodedCreated(TimestampTz created) {
  if (TIMESTAMP_NOT_FINITE(created)) throw core::ValidationError("created must be a finite timestamp", "22008");
  return UnixMicros(created);
}

TimestampTz ParseTimestamp(const char* text) {
  return Guard([text] {
    return DatumGetTimestampTz(
        DirectFunctionCall3(timestamptz_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
  });
}

}  // namespace act::pg
