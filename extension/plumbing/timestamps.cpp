#include "timestamps.hpp"

#include "error_bridge.hpp"

namespace act::pg {

TimestampTz ParseTimestamp(const char* text) {
  return Guard([text] {
    return DatumGetTimestampTz(
        DirectFunctionCall3(timestamptz_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
  });
}

}  // namespace act::pg
