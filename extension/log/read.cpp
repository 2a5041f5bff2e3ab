// act.read(query, after, limit): the events a consistency boundary's query
// matches (docs/dcb.md). Never above act.horizon().
#include <algorithm>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "act/core/boundary_query.hpp"
#include "act/core/errors.hpp"
#include "arrays.hpp"
#include "boundary_sql.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "json_args.hpp"
#include "spi.hpp"
#include "tag_index.hpp"

namespace act::pg {
namespace {

// The rows of act.read for a query whose every item has a tag: the ids each
// item matches, merged in id order, then each event's row and tags.
void ReadThroughTagIndex(const core::Query& query, int64 after, int64 at_most, std::optional<int64> limit,
                         ReturnSetInfo* result) {
  // Taken now, after the horizon was computed: it sees every id at or below it (READ COMMITTED).
  const ActiveSnapshotScope snapshot(ScanSnapshot::kStatement);
  TagIndexMatcher matcher;
  std::vector<int64> ids;
  for (const core::QueryItem& item : query.items) {
    int64 taken = 0;
    matcher.ForEachMatch(item, after, at_most, [&ids, &taken, limit](int64 id) {
      ids.push_back(id);
      return !limit || ++taken < *limit;
    });
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (limit && ids.size() > static_cast<std::size_t>(*limit)) ids.resize(static_cast<std::size_t>(*limit));

  IndexScan& event = matcher.event();
  const int columns[] = {event.Column("id"),   event.Column("stream"), event.Column("version"),
                         event.Column("name"), event.Column("data"),   event.Column("meta"),
                         event.Column("created")};
  const int deform = *std::max_element(std::begin(columns), std::end(columns));
  for (const int64 id : ids) {
    if (!matcher.FindEvent(id, deform)) continue;
    Datum values[8];
    bool nulls[8] = {};
    for (int i = 0; i < 7; ++i) values[i] = event.DeformedAt(columns[i], &nulls[i]);
    values[7] = MakeTextArray(matcher.Tags(id));
    Datum* value_ptr = values;
    bool* null_ptr = nulls;
    Guard([result, value_ptr, null_ptr] { tuplestore_putvalues(result->setResult, result->setDesc, value_ptr, null_ptr); });
  }
}

}  // namespace
}  // namespace act::pg

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
  if (pg::EveryItemTagged(query)) {
    spi.Finish();
    pg::ReadThroughTagIndex(query, after, at_most, limit, result);
    return Datum(0);
  }
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
