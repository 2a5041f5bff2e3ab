#include "tag_index.hpp"

#include <algorithm>

#include "arrays.hpp"

namespace act::pg {
namespace {

// The lookups by id open on no event; Rescan moves them.
const IndexKey* NoEventKey() {
  static const IndexKey key{1, BTEqualStrategyNumber, F_INT8EQ, Int64GetDatum(-1)};
  return &key;
}

bool IsBookkeeping(std::string_view name) { return name == "__snapshot__" || name == "__tombstone__"; }

}  // namespace

bool EveryItemTagged(const core::Query& query) {
  return std::all_of(query.items.begin(), query.items.end(),
                     [](const core::QueryItem& item) { return !item.tags.empty(); });
}

ActiveSnapshotScope::ActiveSnapshotScope(ScanSnapshot snapshot) {
  Guard([snapshot] {
    CommandCounterIncrement();  // as a statement of the function would: the transaction's writes are seen
    PushActiveSnapshot(snapshot == ScanSnapshot::kLatest ? GetLatestSnapshot() : GetTransactionSnapshot());
  });
}

ActiveSnapshotScope::~ActiveSnapshotScope() {
  try {
    Guard([] { PopActiveSnapshot(); });
  } catch (...) {
    // Only during an abort already under way, which clears the snapshot stack.
  }
}

TagIndexMatcher::TagIndexMatcher()
    : events_("events", "events_pkey", NoEventKey(), 1, ScanSnapshot::kActive),
      tags_("event_tags", "event_tags_pkey", NoEventKey(), 1, ScanSnapshot::kActive),
      name_column_(events_.Column("name")),
      tag_column_(tags_.Column("tag")) {}

void TagIndexMatcher::ForEachMatch(const core::QueryItem& item, int64 after, int64 at_most,
                                   const std::function<bool(int64)>& on_match) {
  const IndexKey keys[3] = {{1, BTEqualStrategyNumber, F_TEXTEQ, MakeText(item.tags.front())},
                            {2, BTGreaterStrategyNumber, F_INT8GT, Int64GetDatum(after)},
                            {2, BTLessEqualStrategyNumber, F_INT8LE, Int64GetDatum(at_most)}};
  IndexScan scan("event_tags", "event_tags_tag_ix", keys, 3, ScanSnapshot::kActive);
  const int id_column = scan.Column("id");
  while (scan.Next()) {
    const int64 id = scan.Int64At(id_column).value_or(0);
    if (Matches(id, item) && !on_match(id)) return;
  }
}

bool TagIndexMatcher::FindEvent(int64 id, int columns) {
  events_.Rescan(Int64GetDatum(id));
  return events_.NextDeformed(columns);
}

std::vector<std::string> TagIndexMatcher::Tags(int64 id) {
  std::vector<std::string> tags;
  tags_.Rescan(Int64GetDatum(id));
  while (tags_.Next()) tags.emplace_back(tags_.BytesAt(tag_column_).value_or(std::string_view()));
  return tags;
}

// The item's first tag is the scan's key: its name, its other tags.
bool TagIndexMatcher::Matches(int64 id, const core::QueryItem& item) {
  events_.Rescan(Int64GetDatum(id));
  if (!events_.Next()) return false;
  const std::string_view name = events_.BytesAt(name_column_).value_or(std::string_view());
  if (IsBookkeeping(name)) return false;
  if (!item.types.empty() && std::find(item.types.begin(), item.types.end(), name) == item.types.end()) return false;
  if (item.tags.size() < 2) return true;
  const std::vector<std::string> tags = Tags(id);
  return std::all_of(item.tags.begin() + 1, item.tags.end(), [&tags](const std::string& wanted) {
    return std::find(tags.begin(), tags.end(), wanted) != tags.end();
  });
}

}  // namespace act::pg
