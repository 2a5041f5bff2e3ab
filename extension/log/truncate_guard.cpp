// act._require_latest_head(stream): act.truncate's guard before it replaces
// a stream. It takes the stream's write lock, so no commit appends to the
// events being deleted, and refuses to go on through a stale transaction
// snapshot (REPEATABLE READ, SERIALIZABLE), which would leave later events
// beside the new seed.
#include <string>

#include "act/core/errors.hpp"
#include "error_bridge.hpp"
#include "head_cache.hpp"
#include "jsonb_access.hpp"
#include "locks.hpp"
#include "stream_head.hpp"

using namespace act;

ACT_SQL_FUNCTION(act_require_latest_head) {
  // STRICT in SQL.
  const Datum stream = PG_GETARG_DATUM(0);
  pg::LockStream(stream);
  pg::ForgetHead(stream);
  if (!IsolationUsesXactSnapshot()) PG_RETURN_VOID();
  const pg::StreamHead visible = pg::ReadHead(stream);
  const pg::StreamHead latest = pg::ReadLatestHead(stream);
  if (!pg::SameHead(visible, latest)) throw core::ConcurrencyError(std::string(pg::TextArg(fcinfo, 0)), latest.version);
  PG_RETURN_VOID();
}
