// act.version(stream): the stream's last version as the calling statement
// sees it, from the (stream, version) index's last entry. In C++ because
// writers retrying on 40001 call it before every attempt: as a SQL function
// it was planned anew on each call, most of a losing attempt's CPU.
#include "error_bridge.hpp"
#include "hosted_partition.hpp"
#include "jsonb_access.hpp"
#include "stream_head.hpp"

using namespace act;

ACT_SQL_FUNCTION(act_version) {
  if (PG_ARGISNULL(0)) PG_RETURN_INT32(-1);  // docs/reference.md: no stream has no events
  pg::RequireHostedStream(pg::TextArg(fcinfo, 0));
  PG_RETURN_INT32(pg::ReadVisibleHead(PG_GETARG_DATUM(0)).version);
}
