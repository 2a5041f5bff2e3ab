// act.read(query, after, limit): the events a consistency boundary's query
// matches (docs/dcb.md). Never above act.horizon().
#include <limits>
#include <optional>
#include <string>

#include "act/core/boundary_query.hpp"
#include "act/core/errors.hpp"
#include "boundary_sql.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "json_args.hpp"
#include "spi.hpp"

using namespace act;

ACT_SQL_FUNCTION(act_read) {
  if (PG_ARGISNULL(0)) throw core::ValidationError("query must not be null", core::sqlstate::kNullValueNotAllowed);
  const core::Query query = core::ParseQuery(pg::JsonArgument(fcinfo, 0, "query"), "query");
  pg::RequireHostedBoundary(query, "query");
  const int64 after = PG_ARGISNULL(1) ? -1 : PG_GETARG_INT64(1);
  std::optional<int64> limit;
  if (!PG_ARGISNULL(2)) {
    limit = PG_GETARG_INT32(2);
    if (*limit < 0) throw core::ValidationError("limit must be 0 or more, not " + std::to_string(*limit));
  }
  ReturnSetInfo* result = pg::Guard([fcinfo] {
    InitMaterializedSRF(fcinfo, 0);
    return reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  });
  if (query.items.empty() || limit == 0) return Datum(0);
  pg::SpiSession spi;
  // Fenced mode: ids become visible in id order, every visible id is at or
  // below the horizon, and the cap would filter nothing.
  const int64 at_most = pg::ConcurrentMode() ? pg::Horizon() : std::numeric_limits<int64>::max();
  pg::BoundStatement bound = pg::BindBoundaryQuery(core::ReadSql(query), after, at_most, limit);
  // Not read-only: the statement takes its snapshot now, after the horizon
  // was computed, so it sees every id at or below it (READ COMMITTED).
  pg::Execute(bound.plan, bound.values, bound.nulls, false, 0, SPI_OK_SELECT);
  pg::Guard([result] {
    for (uint64 i = 0; i < SPI_processed; ++i) tuplestore_puttuple(result->setResult, SPI_tuptable->vals[i]);
  });
  spi.Finish();
  return Datum(0);
}
