#include "event_tags.hpp"

#include "index_scan.hpp"
#include "relations.hpp"

namespace act::pg {

EventTagReader::EventTagReader() {
  // An older version's schema, before ALTER EXTENSION UPDATE, has no tags.
  if (!ActRelationExists("event_tags")) return;
  IndexScan scan("event_tags", "event_tags_pkey", nullptr, 0, ScanSnapshot::kActive);
  any_tags_ = scan.Next();
}

void EventTagReader::Read(int64 id, std::vector<std::string>& tags) const {
  tags.clear();
  if (!any_tags_) return;
  const IndexKey key{1, BTEqualStrategyNumber, F_INT8EQ, Int64GetDatum(id)};
  IndexScan scan("event_tags", "event_tags_pkey", &key, 1, ScanSnapshot::kActive);
  const int tag = scan.Column("tag");
  while (scan.Next()) tags.emplace_back(scan.BytesAt(tag).value_or(std::string_view()));
}

}  // namespace act::pg
