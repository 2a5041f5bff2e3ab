#include "condition_match.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "boundary_sql.hpp"
#include "index_scan.hpp"
#include "spi.hpp"

namespace act::pg {
namespace {

bool IsBookkeeping(std::string_view name) { return name == "__snapshot__" || name == "__tombstone__"; }

// Whether event `id` has one of `types` (any, when none) and is not bookkeeping.
bool NameMatches(int64 id, const core::QueryItem& item) {
  const IndexKey key{1, BTEqualStrategyNumber, F_INT8EQ, Int64GetDatum(id)};
  IndexScan scan("events", "events_pkey", &key, 1, ScanSnapshot::kLatest);
  if (!scan.Next()) return false;
  const std::string_view name = scan.BytesAt(scan.Column("name")).value_or(std::string_view());
  if (IsBookkeeping(name)) return false;
  return item.types.empty() || std::find(item.types.begin(), item.types.end(), name) != item.types.end();
}

// Whether event `id` carries every tag of the item after its first.
bool HasOtherTags(int64 id, const core::QueryItem& item) {
  if (item.tags.size() < 2) return true;
  std::vector<std::string> tags;
  const IndexKey key{1, BTEqualStrategyNumber, F_INT8EQ, Int64GetDatum(id)};
  IndexScan scan("event_tags", "event_tags_pkey", &key, 1, ScanSnapshot::kLatest);
  const int tag = scan.Column("tag");
  while (scan.Next()) tags.emplace_back(scan.BytesAt(tag).value_or(std::string_view()));
  return std::all_of(item.tags.begin() + 1, item.tags.end(), [&tags](const std::string& wanted) {
    return std::find(tags.begin(), tags.end(), wanted) != tags.end();
  });
}

// The item's first match after `after` below `below`: the (tag, id) index
// from its first tag on, in id order.
std::optional<int64> FirstItemMatch(const core::QueryItem& item, int64 after, int64 below) {
  const IndexKey keys[2] = {{1, BTEqualStrategyNumber, F_TEXTEQ, MakeText(item.tags.front())},
                            {2, BTGreaterStrategyNumber, F_INT8GT, Int64GetDatum(after)}};
  IndexScan scan("event_tags", "event_tags_tag_ix", keys, 2, ScanSnapshot::kLatest);
  const int id_column = scan.Column("id");
  while (scan.Next()) {
    const int64 id = scan.Int64At(id_column).value_or(0);
    if (id >= below) return std::nullopt;  // an earlier item already matched at or before it
    if (HasOtherTags(id, item) && NameMatches(id, item)) return id;
  }
  return std::nullopt;
}

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
  const bool all_tagged =
      std::all_of(query.items.begin(), query.items.end(), [](const core::QueryItem& item) { return !item.tags.empty(); });
  if (!all_tagged) return FirstMatchThroughSql(query, after);
  std::optional<ConditionMatch> first;
  for (std::size_t i = 0; i < query.items.size(); ++i) {
    const int64 below = first ? first->id : std::numeric_limits<int64>::max();
    if (const std::optional<int64> id = FirstItemMatch(query.items[i], after, below))
      first = ConditionMatch{*id, static_cast<int64>(i)};
  }
  return first;
}

}  // namespace act::pg
