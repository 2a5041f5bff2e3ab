#include "condition_match.hpp"

#include <limits>

#include "boundary_sql.hpp"
#include "spi.hpp"
#include "tag_index.hpp"

namespace act::pg {
namespace {

std::optional<ConditionMatch> FirstMatchThroughSql(const core::Query& query, int64 after) {
  SpiSession spi;
  BoundStatement bound =
      BindBoundaryQuery(core::FirstMatchSql(query), after, std::numeric_limits<int64>::max(), 1);
  ExecuteOnLatest(bound.plan, bound.values, bound.nulls, true, 1, SPI_OK_SELECT);
  std::optional<ConditionMatch> match;
  if (SPI_processed > 0) {
    match = Guard([] {
      bool is_null;
      const HeapTuple row = SPI_tuptable->vals[0];
      return ConditionMatch{DatumGetInt64(SPI_getbinval(row, SPI_tuptable->tupdesc, 1, &is_null)),
                            static_cast<int64>(DatumGetInt32(SPI_getbinval(row, SPI_tuptable->tupdesc, 2, &is_null)))};
    });
  }
  spi.Finish();
  return match;
}

}  // namespace

std::optional<ConditionMatch> FirstConditionMatch(const core::Query& query, int64 after) {
  if (!EveryItemTagged(query)) return FirstMatchThroughSql(query, after);
  const ActiveSnapshotScope snapshot(ScanSnapshot::kLatest);
  TagIndexMatcher matcher;
  std::optional<ConditionMatch> first;
  for (std::size_t i = 0; i < query.items.size(); ++i) {
    // An earlier item's match at an id wins over a later item's at the same id.
    const int64 at_most = first ? first->id - 1 : std::numeric_limits<int64>::max();
    matcher.ForEachMatch(query.items[i], after, at_most, [&first, i](int64 id) {
      first = ConditionMatch{id, static_cast<int64>(i)};
      return false;
    });
  }
  return first;
}

}  // namespace act::pg
